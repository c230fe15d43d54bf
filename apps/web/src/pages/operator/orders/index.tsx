import { type OperatorOrderView, type OperatorPageOrdersRequest, OrderStatus } from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Flex, Image, Input, Popconfirm, Select, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/request';
import { DataTable } from '../../../components/DataTable';
import { formatAmount } from '../../billing/money';
import { describeOrder, ORDER_STATUS_COLORS } from '../../billing/service-list/order-text';
import { formatTime } from '../../devices/format';
import { RejectDialog } from '../invoices/RejectDialog';

const PAGE_SIZE = 10;
interface OperatorOrderPage {
  list: OperatorOrderView[];
  total: number;
}

/**
 * The operator's orders (issue 17 item 6): pending first, with the transfer proof in view;
 * approve (renewals extend service, credit top-ups credit the ledger) or reject with a reason,
 * and give a pending order a due date, after which it carries a late fee (issue 17 item 3).
 */
export default function OperatorOrdersPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<number | undefined>(OrderStatus.Pending);
  const [companyName, setCompanyName] = useState('');
  const [rejecting, setRejecting] = useState<OperatorOrderView | null>(null);
  const body: OperatorPageOrdersRequest = {
    pageNum,
    pageSize: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(companyName ? { companyName } : {}),
  };
  const orders = useQuery({
    queryKey: ['operator', 'orders', body],
    queryFn: () => request<OperatorOrderPage>('/api/operator/order/pageOrders', body),
    placeholderData: keepPreviousData,
  });
  const decide = useMutation({
    mutationFn: ({ path, ...b }: { path: string; id: string; reason?: string }) => request(path, b),
    onSuccess: () => client.invalidateQueries({ queryKey: ['operator'] }),
  });
  const setDueDate = useMutation({
    mutationFn: (b: { id: string; dueDate: string | null }) => request('/api/operator/order/setDueDate', b),
    onSuccess: () => {
      void message.success(t('invoices.operator.dueDateSet'));
      return client.invalidateQueries({ queryKey: ['operator'] });
    },
  });
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
        {t('menu.operatorOrders')}
      </Typography.Title>
      <Card>
        <Flex gap="small" wrap style={{ marginBottom: 12 }}>
          <Select
            allowClear
            style={{ minWidth: 200 }}
            placeholder={t('billing.orders.status')}
            aria-label={t('billing.orders.status')}
            value={status}
            data-testid="operator-orders-status"
            onChange={(v) => {
              setStatus(v);
              setPageNum(1);
            }}
            options={[1, 2, 3, 4].map((s) => ({ value: s, label: t(`billing.status.${s}`) }))}
          />
          <Input.Search
            allowClear
            style={{ maxWidth: 280 }}
            placeholder={t('invoices.operator.company')}
            aria-label={t('invoices.operator.company')}
            onSearch={(v) => {
              setCompanyName(v.trim());
              setPageNum(1);
            }}
          />
        </Flex>
        <DataTable<OperatorOrderView>
          rowKey="id"
          size="small"
          loading={orders.isFetching}
          dataSource={orders.data?.list ?? []}
          onRow={(o) => ({ 'data-testid': `operator-order-${o.id}` }) as React.HTMLAttributes<HTMLElement>}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: orders.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
          columns={[
            { key: 'company', title: t('invoices.operator.company'), dataIndex: 'companyName' },
            { key: 'orderNo', title: t('billing.orders.orderNo'), dataIndex: 'orderNo' },
            { key: 'kind', title: t('billing.orders.kind'), render: (_, o) => t(`billing.kind.${o.kind}`) },
            { key: 'what', title: t('billing.orders.what'), render: (_, o) => describeOrder(t, o) },
            { key: 'time', title: t('billing.orders.time'), render: (_, o) => formatTime(o.createTime) },
            { key: 'person', title: t('billing.orders.person'), render: (_, o) => o.createdByName || '-' },
            {
              key: 'amount',
              title: t('billing.orders.amount'),
              render: (_, o) => (
                <>
                  {formatAmount(o.amount)}
                  {o.lateFee ? (
                    <Typography.Text type="danger"> +{formatAmount(o.lateFee)}</Typography.Text>
                  ) : null}
                </>
              ),
            },
            {
              key: 'dueDate',
              title: t('invoices.operator.dueDate'),
              render: (_, o) =>
                o.status === OrderStatus.Pending ? (
                  <DatePicker
                    size="small"
                    value={o.dueDate ? dayjs(o.dueDate) : null}
                    aria-label={t('invoices.operator.dueDate')}
                    title={t('invoices.operator.dueDateHint')}
                    data-testid={`order-due-${o.id}`}
                    onChange={(day) =>
                      setDueDate
                        .mutateAsync({ id: o.id, dueDate: day ? day.format('YYYY-MM-DD') : null })
                        .catch(() => undefined)
                    }
                  />
                ) : (
                  (o.dueDate ?? '-')
                ),
            },
            {
              key: 'paymentMethod',
              title: t('billing.orders.paymentMethod'),
              render: (_, o) => t(`invoices.method.${o.paymentMethod}`),
            },
            {
              key: 'proof',
              title: t('invoices.pay.proof'),
              render: (_, o) =>
                o.proofImage ? <Image src={o.proofImage} width={64} data-testid="order-proof" /> : '-',
            },
            {
              key: 'status',
              title: t('billing.orders.status'),
              render: (_, o) => (
                <Tag color={ORDER_STATUS_COLORS[o.status]} data-testid="order-status">
                  {t(`billing.status.${o.status}`)}
                </Tag>
              ),
            },
            {
              key: 'actions',
              title: t('billing.orders.actions'),
              render: (_, o) =>
                o.status === OrderStatus.Pending ? (
                  <Flex gap="small" wrap>
                    <Popconfirm
                      title={t('invoices.operator.approveConfirm', { orderNo: o.orderNo })}
                      okText={t('invoices.operator.approve')}
                      cancelText={t('invoices.common.cancel')}
                      okButtonProps={{
                        ...({ 'data-testid': 'order-approve-confirm' } as Record<string, string>),
                      }}
                      onConfirm={() =>
                        decide
                          .mutateAsync({ path: '/api/operator/order/approveOrder', id: o.id })
                          .catch(() => undefined)
                      }
                    >
                      <Button size="small" type="primary" data-testid="order-approve">
                        {t('invoices.operator.approve')}
                      </Button>
                    </Popconfirm>
                    <Button size="small" danger data-testid="order-reject" onClick={() => setRejecting(o)}>
                      {t('invoices.operator.reject')}
                    </Button>
                  </Flex>
                ) : null,
            },
          ]}
        />
      </Card>
      <RejectDialog
        open={!!rejecting}
        title={t('invoices.operator.rejectOrderTitle')}
        onClose={() => setRejecting(null)}
        onReject={(reason) =>
          decide.mutateAsync({ path: '/api/operator/order/rejectOrder', id: rejecting!.id, reason })
        }
      />
    </Flex>
  );
}
