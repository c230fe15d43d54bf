import type { TableColumnsType, TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { auditPagination } from './pagination';
import type { PageOf } from './queries';

/** One page of an audit log; rows carry the `audit-row` class and a test id of their own. */
export function AuditTable<T extends { id: string | number }>({
  columns,
  page,
  pageNum,
  onPageChange,
  rowTestId,
  expandable,
}: {
  columns: TableColumnsType<T>;
  page: { data?: PageOf<T>; isFetching: boolean };
  pageNum: number;
  onPageChange: (pageNum: number) => void;
  rowTestId: (row: T) => string;
  expandable?: TableProps<T>['expandable'];
}) {
  const { t } = useTranslation();
  return (
    <DataTable<T>
      rowKey="id"
      columns={columns}
      dataSource={page.data?.list ?? []}
      loading={page.isFetching}
      onRow={(r) => ({ className: 'audit-row', 'data-testid': rowTestId(r) })}
      expandable={expandable}
      pagination={auditPagination(t, pageNum, page.data?.total ?? 0, onPageChange)}
    />
  );
}
