import { InvoiceStatus, type InvoiceView } from '@coldchain/contract';
import { Button, Flex, Popconfirm, Select, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../devices/format';
import { formatAmount } from '../money';
import { downloadInvoice, useCancelInvoice, useInvoices } from './queries';

export const INVOICE_STATUS_COLORS: Record<number, string> = {
  [InvoiceStatus.InProgress]: 'gold',
  [InvoiceStatus.Generated]: 'green',
  [InvoiceStatus.Rejected]: 'red',
  [InvoiceStatus.Cancelled]: 'default',
};
const PAGE_SIZE = 10;

/**
 * Invoice applications with their status; the company page cancels and downloads, the department
 * view (`departmentId`) reads the same rows for one department and those below it.
 */
export function InvoicesTable({
  departmentId,
  canEdit,
  extra,
}: {
  departmentId?: string;
  canEdit: boolean;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<number | undefined>();
  const invoices = useInvoices({
    pageNum,
    pageSize: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(departmentId ? { departmentId } : {}),
  });
  const cancel = useCancelInvoice();
  return (
    <>
      <Flex gap="small" wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('invoices.list.status')}
          aria-label={t('invoices.list.status')}
          style={{ minWidth: 200 }}
          value={status}
          data-testid="invoices-filter-status"
          onChange={(v) => {
            setStatus(v);
            setPageNum(1);
          }}
          options={[1, 2, 3, 4].map((s) => ({ value: s, label: t(`invoices.status.${s}`) }))}
        />
        {extra}
      </Flex>
      <DataTable<InvoiceView>
        rowKey="id"
        size="small"
        loading={invoices.isFetching}
        dataSource={invoices.data?.list ?? []}
        onRow={(i) => ({ 'data-testid': `invoice-row-${i.id}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: invoices.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
        columns={[
          { key: 'time', title: t('invoices.list.time'), render: (_, i) => formatTime(i.createTime) },
          { key: 'type', title: t('invoices.form.type'), render: (_, i) => t(`invoices.type.${i.type}`) },
          { key: 'title', title: t('invoices.form.title'), dataIndex: 'title' },
          { key: 'amount', title: t('invoices.list.amount'), render: (_, i) => formatAmount(i.amount) },
          {
            key: 'orders',
            title: t('invoices.list.orders'),
            render: (_, i) => i.orders.map((o) => o.orderNo).join(', '),
          },
          { key: 'applicant', title: t('invoices.list.applicant'), render: (_, i) => i.applicantName || '-' },
          ...(departmentId
            ? [
                {
                  key: 'department',
                  title: t('invoices.list.department'),
                  render: (_: unknown, i: InvoiceView) => i.departmentName || '-',
                },
              ]
            : []),
          {
            key: 'status',
            title: t('invoices.list.status'),
            render: (_, i) => (
              <Flex vertical>
                <Tag color={INVOICE_STATUS_COLORS[i.status]} data-testid="invoice-status">
                  {t(`invoices.status.${i.status}`)}
                </Tag>
                {i.rejectReason ? (
                  <Typography.Text type="danger" data-testid="invoice-reject-reason">
                    {i.rejectReason}
                  </Typography.Text>
                ) : null}
              </Flex>
            ),
          },
          {
            key: 'actions',
            title: t('invoices.list.actions'),
            render: (_, i) => (
              <Flex gap="small" wrap>
                {i.hasPdf ? (
                  <Button
                    size="small"
                    type="primary"
                    data-testid="invoice-download"
                    onClick={() => void downloadInvoice(i.id).catch(() => undefined)}
                  >
                    {t('invoices.list.download')}
                  </Button>
                ) : null}
                {canEdit && i.status === InvoiceStatus.InProgress ? (
                  <Popconfirm
                    title={t('invoices.list.cancelConfirm')}
                    okText={t('invoices.list.cancel')}
                    cancelText={t('invoices.common.keep')}
                    okButtonProps={{
                      ...({ 'data-testid': 'invoice-cancel-confirm' } as Record<string, string>),
                    }}
                    onConfirm={() => cancel.mutateAsync(i.id).catch(() => undefined)}
                  >
                    <Button size="small" danger data-testid="invoice-cancel">
                      {t('invoices.list.cancel')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Flex>
            ),
          },
        ]}
      />
    </>
  );
}
