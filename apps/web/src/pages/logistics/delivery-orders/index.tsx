import { PlusOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import type { DeliveryListItem } from '@coldchain/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Drawer,
  Flex,
  Popconfirm,
  Result,
  Space,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { useDeviceType } from '../../../layout/useDeviceType';
import { useHasAuthTag } from '../../../session/queries';
import { refusalOf } from '../addresses/api';
import { type DeliveryStep, useDeliveries, useDeliveryDetail, useDeliveryStep } from './api';
import { DeliveryDetailView } from './DeliveryDetailView';
import { DeliveryFormModal } from './DeliveryFormModal';
import { SendLinkModal } from './SendLinkModal';
import { NoteButtons, OrderFilters, useOrderColumns } from './shared';

const PAGE_SIZE = 20;

/**
 * `deliveryOrder`: the company's shipments, from creation through departure and arrival to the
 * receiver's decision. A dispatcher with `logistics:edit` creates, departs, marks arrived,
 * cancels and sends receipt links; everyone with `logistics:view` reads and prints notes.
 */
export default function DeliveryOrdersPage() {
  const { t } = useTranslation();
  const mobile = useDeviceType() === 'mobile';
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('logistics:edit');
  const [keyword, setKeyword] = useState('');
  const [state, setState] = useState<number | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const [linkFor, setLinkFor] = useState<DeliveryListItem | null>(null);
  const orders = useDeliveries('page', {
    pageNum,
    pageSize: PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(state ? { state } : {}),
  });
  const detail = useDeliveryDetail(open);
  const editDetail = useDeliveryDetail(editing && editing !== 'new' ? editing : null);
  const step = useDeliveryStep();
  const refusal = orders.isError ? refusalOf(orders.error) : null;

  const run = (which: DeliveryStep, d: DeliveryListItem) =>
    step
      .mutateAsync({ step: which, id: d.id })
      .then(
        () =>
          void message.success(
            t(
              `logistics.delivery.${which === 'cancel' ? 'cancelled' : which === 'depart' ? 'departed' : 'arrived'}`,
            ),
          ),
      )
      .catch(() => undefined);
  const confirmStep = (which: DeliveryStep, d: DeliveryListItem, label: string) => (
    <Popconfirm
      title={t(`logistics.delivery.${which}Confirm`, { orderNo: d.orderNo })}
      okText={label}
      cancelText={t('logistics.delivery.dismiss')}
      okButtonProps={{ 'data-testid': `delivery-${which}-confirm` }}
      onConfirm={() => run(which, d)}
    >
      <Button size="small" danger={which === 'cancel'} data-testid={`delivery-${which}-${d.id}`}>
        {label}
      </Button>
    </Popconfirm>
  );

  const columns: TableColumnsType<DeliveryListItem> = [
    ...useOrderColumns(),
    {
      title: t('logistics.delivery.actions'),
      key: 'actions',
      render: (_, d) => (
        <Space size="small" wrap>
          <Button size="small" onClick={() => setOpen(d.id)} data-testid={`delivery-open-${d.id}`}>
            {t('logistics.delivery.detail')}
          </Button>
          {canEdit && d.state === 1 && (
            <Button size="small" onClick={() => setEditing(d.id)} data-testid={`delivery-edit-${d.id}`}>
              {t('logistics.delivery.edit')}
            </Button>
          )}
          {canEdit && d.state === 1 && confirmStep('depart', d, t('logistics.delivery.depart'))}
          {canEdit && d.state === 2 && confirmStep('arrive', d, t('logistics.delivery.arrive'))}
          {canEdit && (d.state === 2 || d.state === 3) && (
            <Button
              size="small"
              icon={<SendOutlined />}
              onClick={() => setLinkFor(d)}
              data-testid={`delivery-link-${d.id}`}
            >
              {t('logistics.delivery.sendLink')}
            </Button>
          )}
          {canEdit &&
            (d.state === 1 || d.state === 2) &&
            confirmStep('cancel', d, t('logistics.delivery.cancel'))}
        </Space>
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.deliveryOrder')}
      </Typography.Title>
      <Card>
        {refusal ? (
          <Result subTitle={refusal} data-testid="delivery-refused" />
        ) : (
          <>
            <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 16 }}>
              <OrderFilters
                onKeyword={(value) => {
                  setKeyword(value);
                  setPageNum(1);
                }}
                state={state}
                onState={(value) => {
                  setState(value);
                  setPageNum(1);
                }}
              />
              {canEdit ? (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing('new')}
                  data-testid="delivery-add"
                >
                  {t('logistics.delivery.add')}
                </Button>
              ) : (
                <Alert type="info" showIcon title={t('logistics.delivery.readOnly')} />
              )}
            </Flex>
            {orders.isError ? (
              <Result
                status="warning"
                subTitle={t('logistics.delivery.loadFailed')}
                extra={
                  <Button icon={<ReloadOutlined />} onClick={() => void orders.refetch()}>
                    {t('logistics.delivery.retry')}
                  </Button>
                }
              />
            ) : (
              <DataTable<DeliveryListItem>
                rowKey="id"
                columns={columns}
                dataSource={orders.data?.list ?? []}
                loading={orders.isFetching}
                locale={{ emptyText: t('logistics.delivery.empty') }}
                onRow={(d) => ({ 'data-testid': `delivery-row-${d.id}` }) as object}
                pagination={{
                  current: pageNum,
                  pageSize: PAGE_SIZE,
                  total: orders.data?.total ?? 0,
                  hideOnSinglePage: true,
                  showSizeChanger: false,
                  onChange: setPageNum,
                }}
              />
            )}
          </>
        )}
      </Card>
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        size={mobile ? '100%' : 900}
        title={t('logistics.delivery.detail')}
        destroyOnHidden
      >
        {detail.data && (
          <DeliveryDetailView detail={detail.data} actions={<NoteButtons id={detail.data.id} />} />
        )}
      </Drawer>
      {editing === 'new' && <DeliveryFormModal order={null} onClose={() => setEditing(null)} />}
      {editing && editing !== 'new' && editDetail.data && (
        <DeliveryFormModal order={editDetail.data} onClose={() => setEditing(null)} />
      )}
      {linkFor && <SendLinkModal order={linkFor} onClose={() => setLinkFor(null)} />}
    </div>
  );
}
