import { type OrderKind, OrderStatus, type OrderView } from '@coldchain/contract';
import { Button, Card, Popconfirm, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { formatTime } from '../devices/format';
import { formatAmount } from './money';
import { useCancelOrder, useOrders } from './queries';
import { describeOrder } from './service-list/order-text';

const STATUS_COLORS: Record<number, string> = {
  [OrderStatus.Pending]: 'gold',
  [OrderStatus.Approved]: 'green',
  [OrderStatus.Rejected]: 'red',
  [OrderStatus.Cancelled]: 'default',
};

const PAGE_SIZE = 10;

/**
 * The caller's orders (of one kind, or all of them on the expense page), with their status (spec
 * section 4) and a cancel for pending ones.
 */
export function OrdersTable({ kind }: { kind?: OrderKind }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const orders = useOrders({ pageNum, pageSize: PAGE_SIZE, ...(kind ? { kind } : {}) });
  const cancel = useCancelOrder();

  return (
    <Card title={t('billing.orders.title')}>
      <DataTable<OrderView>
        rowKey="id"
        size="small"
        loading={orders.isFetching}
        dataSource={orders.data?.list ?? []}
        onRow={(order) => ({ 'data-testid': `order-row-${order.id}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: orders.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
        columns={[
          { title: t('billing.orders.orderNo'), dataIndex: 'orderNo' },
          { title: t('billing.orders.kind'), render: (_, o) => t(`billing.kind.${o.kind}`) },
          { title: t('billing.orders.what'), render: (_, o) => describeOrder(t, o) },
          { title: t('billing.orders.time'), render: (_, o) => formatTime(o.createTime) },
          { title: t('billing.orders.person'), render: (_, o) => o.createdByName || '-' },
          { title: t('billing.orders.amount'), render: (_, o) => formatAmount(o.amount) },
          {
            title: t('billing.orders.paymentMethod'),
            render: (_, o) => t(`invoices.method.${o.paymentMethod}`),
          },
          {
            title: t('billing.orders.invoiceStatus'),
            render: (_, o) => t(`invoices.status.${o.invoiceStatus}`),
          },
          {
            title: t('billing.orders.status'),
            render: (_, o) => (
              <Tag color={STATUS_COLORS[o.status]} data-testid="order-status">
                {t(`billing.status.${o.status}`)}
              </Tag>
            ),
          },
          {
            title: t('billing.orders.actions'),
            render: (_, o) =>
              o.status === OrderStatus.Pending ? (
                <Popconfirm
                  title={t('billing.orders.cancelConfirm')}
                  okText={t('billing.orders.cancel')}
                  cancelText={t('billing.orders.keep')}
                  okButtonProps={{ ...({ 'data-testid': 'order-cancel-confirm' } as Record<string, string>) }}
                  onConfirm={() => cancel.mutateAsync({ id: o.id }).catch(() => undefined)}
                >
                  <Button size="small" danger data-testid="order-cancel">
                    {t('billing.orders.cancel')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
