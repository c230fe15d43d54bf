import { ReloadOutlined } from '@ant-design/icons';
import type { DeliveryListItem } from '@coldchain/contract';
import { Button, Card, Drawer, Flex, Result, Space, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { useDeviceType } from '../../../layout/useDeviceType';
import { useHasAuthTag } from '../../../session/queries';
import { refusalOf } from '../addresses/api';
import { useDeliveries, useDeliveryDetail } from '../delivery-orders/api';
import { DeliveryDetailView } from '../delivery-orders/DeliveryDetailView';
import { NoteButtons, OrderFilters, useOrderColumns } from '../delivery-orders/shared';
import { ReceiveModal } from './ReceiveModal';

const PAGE_SIZE = 20;

/**
 * `receivingOrder`: shipments other companies (or this one) addressed to this company, once they
 * left. Only each shipment's readings between departure and arrival are shown; an arrived one is
 * received here with the signature password.
 */
export default function ReceivingOrdersPage() {
  const { t } = useTranslation();
  const mobile = useDeviceType() === 'mobile';
  const canEdit = useHasAuthTag('logistics:edit');
  const [keyword, setKeyword] = useState('');
  const [state, setState] = useState<number | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [receiving, setReceiving] = useState<DeliveryListItem | null>(null);
  const orders = useDeliveries('receiving', {
    pageNum,
    pageSize: PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(state ? { state } : {}),
  });
  const detail = useDeliveryDetail(open);
  const refusal = orders.isError ? refusalOf(orders.error) : null;
  const columns: TableColumnsType<DeliveryListItem> = [
    ...useOrderColumns(),
    {
      title: t('logistics.delivery.field.senderCompany'),
      key: 'senderCompany',
      render: (_, d) => d.senderCompany,
    },
    {
      title: t('logistics.delivery.actions'),
      key: 'actions',
      render: (_, d) => (
        <Space size="small" wrap>
          <Button size="small" onClick={() => setOpen(d.id)} data-testid={`receiving-open-${d.id}`}>
            {t('logistics.delivery.detail')}
          </Button>
          {canEdit && d.state === 3 && (
            <Button
              size="small"
              type="primary"
              onClick={() => setReceiving(d)}
              data-testid={`receiving-receive-${d.id}`}
            >
              {t('logistics.receiving.receive')}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.receivingOrder')}
      </Typography.Title>
      <Card>
        {refusal ? (
          <Result subTitle={refusal} data-testid="receiving-refused" />
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
                locale={{ emptyText: t('logistics.receiving.empty') }}
                onRow={(d) => ({ 'data-testid': `receiving-row-${d.id}` }) as object}
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
      {receiving && <ReceiveModal order={receiving} onClose={() => setReceiving(null)} />}
    </div>
  );
}
