import type { MemberView } from '@coldchain/contract';
import { Space, type TableColumnsType, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { roleName } from '../../../components/labels';
import { formatTime } from '../../devices/format';

interface Props {
  members: MemberView[];
  loading?: boolean;
  total?: number;
  pageNum?: number;
  pageSize?: number;
  onPage?: (pageNum: number) => void;
  /** Row actions; the column is left out when not given. */
  actions?: (member: MemberView) => ReactNode;
}

/** Members with name, account, phone, department, role, join time and last login. */
export function MemberTable({ members, loading, total, pageNum, pageSize, onPage, actions }: Props) {
  const { t } = useTranslation();
  const columns: TableColumnsType<MemberView> = [
    {
      title: t('org.member.name'),
      key: 'name',
      render: (_, m) => (
        <Space size={4}>
          <span>{m.name}</span>
          {m.isAdmin ? <Tag color="gold">{t('org.member.admin')}</Tag> : null}
          {m.isLeader ? <Tag color="blue">{t('org.member.leader')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('org.member.account'), dataIndex: 'account', key: 'account' },
    { title: t('org.member.phone'), dataIndex: 'phone', key: 'phone', render: (v: string) => v || '-' },
    {
      title: t('org.member.department'),
      dataIndex: 'departmentName',
      key: 'departmentName',
      render: (v: string) => v || '-',
    },
    {
      title: t('org.member.role'),
      dataIndex: 'roleName',
      key: 'roleName',
      render: (v: string) => roleName(t, v) || <Tag>{t('org.member.noRole')}</Tag>,
    },
    {
      title: t('org.member.joinTime'),
      dataIndex: 'joinTime',
      key: 'joinTime',
      render: (ts: number) => formatTime(ts),
    },
    {
      title: t('org.member.lastLogin'),
      dataIndex: 'lastLoginTime',
      key: 'lastLoginTime',
      render: (ts: number | null) => formatTime(ts),
    },
  ];
  if (actions) columns.push({ title: t('org.actions'), key: 'actions', render: (_, m) => actions(m) });
  return (
    <DataTable<MemberView>
      rowKey="userId"
      columns={columns}
      dataSource={members}
      loading={loading}
      onRow={(m) => ({ 'data-testid': `member-row-${m.userId}` }) as React.HTMLAttributes<HTMLElement>}
      pagination={
        onPage
          ? {
              current: pageNum,
              pageSize,
              total,
              showSizeChanger: false,
              showTotal: (count) => t('org.total', { count }),
              onChange: onPage,
            }
          : false
      }
    />
  );
}
