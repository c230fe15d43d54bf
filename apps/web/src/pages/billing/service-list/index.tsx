import { type OrderKind, OrderKinds, OrderStatus, type OrderView } from '@coldchain/contract';
import { Button, Card, Flex, Popconfirm, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { useHasAuthTag } from '../../../session/queries';
import { formatTime } from '../../devices/format';
import { formatAmount } from '../money';
import { BuyCreditsDialog } from './BuyCreditsDialog';
import { describeOrder, ORDER_STATUS_COLORS } from './order-text';
import { PayDialog } from './PayDialog';
import { useCancelServiceOrder, useServiceList } from './queries';

const PAGE_SIZE = 10;

/**
 * Top-up records (menu `serviceList`, issue 17 item 2): every order of the company, renewals,
 * data recovery and message credits, with how it is paid, its invoice status and a late fee once
 * past its due date; a pending order can be paid or cancelled, and credits bought here.
 */
export default function ServiceListPage() {
  const { t } = useTranslation();
  const canPay = useHasAuthTag('billing:topUp');
  const [params] = useSearchParams();
  const [pageNum, setPageNum] = useState(1);
  const [kind, setKind] = useState<OrderKind | undefined>();
  const [status, setStatus] = useState<number | undefined>();
  const [buying, setBuying] = useState(false);
  const [paying, setPaying] = useState<OrderView | null>(null);
  const orders = useServiceList({
    pageNum,
    pageSize: PAGE_SIZE,
    ...(kind ? { kind } : {}),
    ...(status ? { status } : {}),
  });
  const cancel = useCancelServiceOrder();
  const list = orders.data?.list ?? [];

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
        {t('menu.serviceList')}
      </Typography.Title>
      {params.get('paid') ? (
        <Typography.Text type="success" data-testid="paid-return">
          {t('invoices.pay.returned')}
        </Typography.Text>
      ) : null}
      <Card
        title={t('invoices.orders.title')}
        extra={
          canPay ? (
            <Button type="primary" onClick={() => setBuying(true)} data-testid="buy-credits">
              {t('invoices.credits.title')}
            </Button>
          ) : null
        }
      >
        <Flex gap="small" wrap style={{ marginBottom: 12 }}>
          <Select
            allowClear
            placeholder={t('billing.orders.kind')}
            aria-label={t('billing.orders.kind')}
            style={{ minWidth: 160 }}
            value={kind}
            data-testid="orders-filter-kind"
            onChange={(v) => {
              setKind(v);
              setPageNum(1);
            }}
            options={OrderKinds.map((k) => ({ value: k, label: t(`billing.kind.${k}`) }))}
          />
          <Select
            allowClear
            placeholder={t('billing.orders.status')}
            aria-label={t('billing.orders.status')}
            style={{ minWidth: 200 }}
            value={status}
            data-testid="orders-filter-status"
            onChange={(v) => {
              setStatus(v);
              setPageNum(1);
            }}
            options={[1, 2, 3, 4].map((s) => ({ value: s, label: t(`billing.status.${s}`) }))}
          />
        </Flex>
        <DataTable<OrderView>
          rowKey="id"
          size="small"
          loading={orders.isFetching}
          dataSource={list}
          onRow={(o) => ({ 'data-testid': `service-order-${o.id}` }) as React.HTMLAttributes<HTMLElement>}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: orders.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
          columns={[
            { key: 'kind', title: t('billing.orders.kind'), render: (_, o) => t(`billing.kind.${o.kind}`) },
            { key: 'orderNo', title: t('billing.orders.orderNo'), dataIndex: 'orderNo' },
            { key: 'what', title: t('billing.orders.what'), render: (_, o) => describeOrder(t, o) },
            { key: 'time', title: t('billing.orders.time'), render: (_, o) => formatTime(o.createTime) },
            { key: 'person', title: t('billing.orders.person'), render: (_, o) => o.createdByName || '-' },
            { key: 'amount', title: t('billing.orders.amount'), render: (_, o) => formatAmount(o.amount) },
            {
              key: 'lateFee',
              title: t('invoices.orders.lateFee'),
              render: (_, o) =>
                o.dueDate ? (
                  <span data-testid="order-late-fee">
                    {formatAmount(o.lateFee ?? 0)}
                    <Typography.Text type="secondary">
                      {' '}
                      ({t('invoices.orders.due', { date: o.dueDate })})
                    </Typography.Text>
                  </span>
                ) : (
                  '-'
                ),
            },
            {
              key: 'paymentMethod',
              title: t('billing.orders.paymentMethod'),
              render: (_, o) => t(`invoices.method.${o.paymentMethod}`),
            },
            {
              key: 'invoiceStatus',
              title: t('billing.orders.invoiceStatus'),
              render: (_, o) => t(`invoices.status.${o.invoiceStatus}`),
            },
            {
              key: 'status',
              title: t('billing.orders.status'),
              render: (_, o) => (
                <Flex vertical>
                  <Tag color={ORDER_STATUS_COLORS[o.status]} data-testid="order-status">
                    {t(`billing.status.${o.status}`)}
                  </Tag>
                  {o.rejectReason ? <Typography.Text type="danger">{o.rejectReason}</Typography.Text> : null}
                  {o.status === OrderStatus.Pending && o.proofImage ? (
                    <Typography.Text type="secondary">{t('invoices.orders.proofSent')}</Typography.Text>
                  ) : null}
                </Flex>
              ),
            },
            {
              key: 'actions',
              title: t('billing.orders.actions'),
              render: (_, o) =>
                canPay && o.status === OrderStatus.Pending ? (
                  <Flex gap="small" wrap>
                    <Button size="small" type="primary" onClick={() => setPaying(o)} data-testid="order-pay">
                      {t('invoices.pay.action')}
                    </Button>
                    <Popconfirm
                      title={t('billing.orders.cancelConfirm')}
                      okText={t('billing.orders.cancel')}
                      cancelText={t('billing.orders.keep')}
                      okButtonProps={{
                        ...({ 'data-testid': 'order-cancel-confirm' } as Record<string, string>),
                      }}
                      onConfirm={() => cancel.mutateAsync({ id: o.id }).catch(() => undefined)}
                    >
                      <Button size="small" danger data-testid="order-cancel">
                        {t('billing.orders.cancel')}
                      </Button>
                    </Popconfirm>
                  </Flex>
                ) : null,
            },
          ]}
        />
      </Card>
      <BuyCreditsDialog
        open={buying}
        onClose={() => {
          setBuying(false);
        }}
      />
      <PayDialog order={paying} onClose={() => setPaying(null)} />
    </Flex>
  );
}
