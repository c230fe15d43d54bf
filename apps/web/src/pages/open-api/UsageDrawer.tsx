import type { OpenApiKeyView, OpenApiUsageView } from '@coldchain/contract';
import { Drawer, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { useDeviceType } from '../../layout/useDeviceType';
import { formatTime } from '../devices/format';
import { useOpenApiUsage } from './api';
import { ListProblem } from './ListProblem';

const PAGE_SIZE = 20;

function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  return 'green';
}

/** A key's usage log, newest first (`/api/openApi/pageUsage`). */
export function UsageDrawer({ apiKey, onClose }: { apiKey: OpenApiKeyView; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useDeviceType() === 'mobile';
  const [pageNum, setPageNum] = useState(1);
  const usage = useOpenApiUsage({ id: apiKey.id, pageNum, pageSize: PAGE_SIZE });

  const columns: TableColumnsType<OpenApiUsageView> = [
    { title: t('openApi.usage.time'), key: 'time', render: (_, u) => formatTime(u.time) },
    { title: t('openApi.usage.method'), dataIndex: 'method', key: 'method' },
    {
      title: t('openApi.usage.path'),
      dataIndex: 'path',
      key: 'path',
      render: (path: string) => (
        <Typography.Text code style={{ wordBreak: 'break-all' }}>
          {path}
        </Typography.Text>
      ),
    },
    {
      title: t('openApi.usage.httpStatus'),
      dataIndex: 'httpStatus',
      key: 'httpStatus',
      // 0: admitted, its answer not yet sent (or never: the server stopped meanwhile).
      render: (status: number) =>
        status === 0 ? (
          <Tag>{t('openApi.usage.unfinished')}</Tag>
        ) : (
          <Tag color={statusColor(status)}>{status}</Tag>
        ),
    },
    { title: t('openApi.usage.msgCode'), dataIndex: 'msgCode', key: 'msgCode' },
    {
      title: t('openApi.usage.duration'),
      dataIndex: 'durationMs',
      key: 'durationMs',
      render: (ms: number) => t('openApi.usage.durationMs', { ms }),
    },
    { title: t('openApi.usage.ip'), dataIndex: 'ip', key: 'ip' },
  ];

  return (
    <Drawer
      open
      title={t('openApi.usage.title', { name: apiKey.name })}
      onClose={onClose}
      size={mobile ? '100%' : 900}
      destroyOnHidden
    >
      <div data-testid="usage-drawer">
        {usage.isError ? (
          <ListProblem error={usage.error} onRetry={() => void usage.refetch()} />
        ) : (
          <DataTable<OpenApiUsageView>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={usage.data?.list ?? []}
            loading={usage.isFetching}
            locale={{ emptyText: t('openApi.usage.empty') }}
            onRow={(u) => ({ 'data-testid': `usage-row-${u.id}` }) as object}
            pagination={{
              current: pageNum,
              pageSize: PAGE_SIZE,
              total: usage.data?.total ?? 0,
              showSizeChanger: false,
              hideOnSinglePage: true,
              onChange: setPageNum,
            }}
          />
        )}
      </div>
    </Drawer>
  );
}
