import type { Page, PushDeliveryView } from '@coldchain/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { formatTime } from '../devices/format';
import { ListProblem } from '../open-api/ListProblem';

export const DELIVERIES_PAGE_SIZE = 20;
const STATUS_COLORS: Record<string, string> = {
  delivered: 'green',
  failed: 'red',
  retrying: 'orange',
  sending: 'blue',
  queued: 'default',
};

/**
 * Deliveries newest first, with what the receiver answered: a push address's (`customizedPushUrl`)
 * and a platform docking's (`dockMonitor`), which travel through the same queue.
 */
export function DeliveriesTable({
  deliveries,
  pageNum,
  onPage,
}: {
  deliveries: UseQueryResult<Page<PushDeliveryView>>;
  pageNum: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
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
    <>
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
            pageSize: DELIVERIES_PAGE_SIZE,
            total: deliveries.data?.total ?? 0,
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: onPage,
          }}
        />
      )}
    </>
  );
}
