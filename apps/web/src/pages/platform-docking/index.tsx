import { ApiOutlined, HistoryOutlined, LinkOutlined, StopOutlined } from '@ant-design/icons';
import { type CompanyPlatformView, DockingState } from '@coldchain/contract';
import { Alert, App, Button, Card, Popconfirm, Space, type TableColumnsType, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useHasAuthTag } from '../../session/queries';
import { formatTime } from '../devices/format';
import { ListProblem } from '../open-api/ListProblem';
import { useDockingPlatforms, useStopDocking } from './api';
import { DockingStateTag } from './DockingStateTag';
import { MonitorsModal } from './MonitorsModal';
import { dockMonitorUrl } from './paths';

/**
 * `platformList`: the platforms the supplier offers, each with the company's docking: apply with
 * chosen monitors (pending until the supplier enables it), change the monitors, see what was
 * delivered (`dockMonitor`), or stop it, which clears the docking data.
 */
export default function PlatformListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('docking:edit');
  const platforms = useDockingPlatforms();
  const stop = useStopDocking();
  const [choosing, setChoosing] = useState<CompanyPlatformView | null>(null);

  const columns: TableColumnsType<CompanyPlatformView> = [
    { title: t('platformDock.list.platform'), dataIndex: 'name', key: 'name' },
    {
      title: t('platformDock.list.state'),
      key: 'state',
      render: (_, p) => <DockingStateTag id={p.id} state={p.docking?.state ?? null} />,
    },
    {
      title: t('platformDock.list.monitors'),
      key: 'monitors',
      render: (_, p) =>
        p.docking && p.docking.state !== DockingState.Stopped ? p.docking.deviceIds.length : '-',
    },
    {
      title: t('platformDock.list.applied'),
      key: 'applied',
      render: (_, p) => (p.docking ? `${formatTime(p.docking.applyTime)} ${p.docking.appliedBy}` : '-'),
    },
    {
      title: t('platformDock.list.note'),
      key: 'note',
      render: (_, p) => <Typography.Text type="secondary">{noteOf(t, p)}</Typography.Text>,
    },
    {
      title: t('platformDock.common.actions'),
      key: 'actions',
      render: (_, p) => {
        const live = p.docking && p.docking.state !== DockingState.Stopped ? p.docking : null;
        return (
          <Space size="small" wrap>
            {canEdit && !live && (
              <Button
                size="small"
                type="primary"
                icon={<LinkOutlined />}
                onClick={() => setChoosing(p)}
                data-testid={`dock-apply-${p.id}`}
              >
                {t('platformDock.list.apply')}
              </Button>
            )}
            {canEdit && live && (
              <Button
                size="small"
                icon={<ApiOutlined />}
                onClick={() => setChoosing(p)}
                data-testid={`dock-monitors-${p.id}`}
              >
                {t('platformDock.list.changeMonitors')}
              </Button>
            )}
            {p.docking && (
              <Link to={dockMonitorUrl(p.docking.id)} data-testid={`dock-open-${p.id}`}>
                <Button size="small" icon={<HistoryOutlined />}>
                  {t('platformDock.list.deliveries')}
                </Button>
              </Link>
            )}
            {canEdit && live && (
              <Popconfirm
                title={t('platformDock.list.stopConfirm')}
                okText={t('platformDock.list.stop')}
                cancelText={t('platformDock.common.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'dock-stop-confirm' }}
                onConfirm={() =>
                  stop
                    .mutateAsync(live.id)
                    .then(() => void message.success(t('platformDock.list.stopped')))
                    .catch(() => undefined)
                }
              >
                <Button size="small" danger icon={<StopOutlined />} data-testid={`dock-stop-${p.id}`}>
                  {t('platformDock.list.stop')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.platformList')}
      </Typography.Title>
      <Card>
        {platforms.isError ? (
          <ListProblem error={platforms.error} onRetry={() => void platforms.refetch()} />
        ) : (
          <>
            <Typography.Paragraph type="secondary">{t('platformDock.list.intro')}</Typography.Paragraph>
            {!canEdit && (
              <Alert
                type="info"
                showIcon
                title={t('platformDock.list.readOnly')}
                style={{ marginBottom: 16 }}
              />
            )}
            <DataTable<CompanyPlatformView>
              rowKey="id"
              keyColumns={['state']}
              columns={columns}
              dataSource={platforms.data ?? []}
              loading={platforms.isFetching}
              locale={{ emptyText: t('platformDock.list.empty') }}
              onRow={(p) => ({ 'data-testid': `dock-row-${p.id}` }) as object}
              pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            />
          </>
        )}
      </Card>
      {choosing && (
        <MonitorsModal
          platform={choosing}
          docking={
            choosing.docking && choosing.docking.state !== DockingState.Stopped ? choosing.docking : null
          }
          onClose={(applied) => {
            setChoosing(null);
            if (applied) void message.success(t('platformDock.list.applied'));
          }}
        />
      )}
    </div>
  );
}

/** Why a docking is where it is: waiting for the supplier, refused, or stopped after failures. */
function noteOf(t: TFunction, p: CompanyPlatformView): string {
  const d = p.docking;
  if (!d) return '';
  if (d.state === DockingState.Pending) return t('platformDock.note.pending');
  if (d.stoppedByFailures) return t('platformDock.note.failures');
  if (d.state === DockingState.Stopped && d.reason)
    return t('platformDock.note.refused', { reason: d.reason });
  if (d.state === DockingState.Enabled && d.failingSince)
    return t('platformDock.note.failing', { since: formatTime(d.failingSince) });
  return '';
}
