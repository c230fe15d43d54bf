import type { TablePaginationConfig } from 'antd';
import type { TFunction } from 'i18next';

/** Rows per page of the audit logs. */
export const AUDIT_PAGE_SIZE = 20;

/** The audit logs' paging: fixed page size, the total in the user's language. */
export function auditPagination(
  t: TFunction,
  current: number,
  total: number,
  onChange: (page: number) => void,
): TablePaginationConfig {
  return {
    current,
    pageSize: AUDIT_PAGE_SIZE,
    total,
    showSizeChanger: false,
    showTotal: (count) => t('audit.total', { count }),
    onChange,
  };
}
