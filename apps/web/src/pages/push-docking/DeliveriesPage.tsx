import { ArrowLeftOutlined } from '@ant-design/icons';
import type { PushDeliveryView } from '@coldchain/contract';
import { Button, Card, Descriptions, Flex, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { formatTime } from '../devices/format';
import { ListProblem } from '../open-api/ListProblem';
import { usePushDeliveries, usePushUrls } from './api';
import { PUSH_LIST_PATH } from './paths';
import { StateTag } from './StateTag';

const PAGE_SIZE = 20;
const STATUS_COLORS: Record<string, string> = {
  delivered: 'green',
  failed: 'red',
  retrying: 'orange',
  sending: 'blue',
  queued: 'default',
};

/** `customizedPushUrl`: one address's deliveries, newest first, with what the receiver answered. */
export default function PushDeliveriesPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [pageNum, setPageNum] = useState(1);
  const urls = usePushUrls();
  const address = urls.data?.list.find((u) => u.id === id);
  const deliveries = usePushDeliveries({ id, pageNum, pageSize: PAGE_SIZE });

  const columns: TableColumnsType<PushDeliveryView> = [
    { title: t('pushDock.deliveries.time'), key: 'time', render: (_, d) => formatTime(d.time) },
    {
      title: t('pushDock.deliveries.event'),
      key: 'event',
      render: (_, d) => t(`pushDock.events.${d.event}`),
    },
    { title: t('pushDock.deliveries.items'), dataIndex: 'items', key: 'items' },
    {
      title: t('pushDock.deliveries.status'),
      key: 'status',
      render: (_, d) => (
        <Tag color={STATUS_COLORS[d.status]} data-testid={`delivery-status-${d.id}`}>
          {t(`pushDock.statuses.${d.status}`)}
        </Tag>
      ),
    },
    { title: t('pushDock.deliveries.httpStatus'), key: 'httpStatus', render: (_, d) => d.httpStatus ?? '-' },
    {
      title: t('pushDock.deliveries.duration'),
      key: 'duration',
      render: (_, d) => (d.durationMs === null ? '-' : t('pushDock.deliveries.ms', { ms: d.durationMs })),
    },
    { title: t('pushDock.deliveries.attempts'), dataIndex: 'attempts', key: 'attempts' },
    {
      title: t('pushDock.deliveries.error'),
      key: 'error',
      render: (_, d) => (
        <Typography.Text type={d.error ? 'danger' : undefined} style={{ wordBreak: 'break-all' }}>
          {d.error || '-'}
        </Typography.Text>
      ),
    },
  ];

  return (
    <div>
      <Flex align="center" gap="small" wrap>
        <Link to={PUSH_LIST_PATH} aria-label={t('pushDock.deliveries.back')}>
          <Button icon={<ArrowLeftOutlined />} aria-label={t('pushDock.deliveries.back')} />
        </Link>
        <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
          {t('menu.customizedPushUrl')}
        </Typography.Title>
      </Flex>
      <Card style={{ marginTop: 16 }}>
        {address && (
          <Descriptions
            column={{ xs: 1, md: 3 }}
            size="small"
            style={{ marginBottom: 16 }}
            data-testid="push-address"
          >
            <Descriptions.Item label={t('pushDock.list.name')}>{address.name}</Descriptions.Item>
            <Descriptions.Item label={t('pushDock.list.url')}>
              <Typography.Text style={{ wordBreak: 'break-all' }}>{address.url}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('pushDock.list.state')}>
              <StateTag id={address.id} state={address.state} />
            </Descriptions.Item>
          </Descriptions>
        )}
        {deliveries.isError ? (
          <ListProblem error={deliveries.error} onRetry={() => void deliveries.refetch()} />
        ) : (
          <DataTable<PushDeliveryView>
            rowKey="id"
            keyColumns={['status']}
            columns={columns}
            dataSource={deliveries.data?.list ?? []}
            loading={deliveries.isFetching}
            locale={{ emptyText: t('pushDock.deliveries.empty') }}
            onRow={(d) => ({ 'data-testid': `delivery-row-${d.id}` }) as object}
            pagination={{
              current: pageNum,
              pageSize: PAGE_SIZE,
              total: deliveries.data?.total ?? 0,
              hideOnSinglePage: true,
              showSizeChanger: false,
              onChange: setPageNum,
            }}
          />
        )}
      </Card>
    </div>
  );
}
