import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatTime } from '../devices/format';
import { ListProblem } from '../open-api/ListProblem';
import { DELIVERIES_PAGE_SIZE, DeliveriesTable } from '../push-docking/DeliveriesTable';
import { useDockingDeliveries, useDockingDetail } from './api';
import { DockingStateTag } from './DockingStateTag';
import { PLATFORM_LIST_PATH } from './paths';

/** `dockMonitor`: one docking: its platform, state and monitors, and what was delivered to it. */
export default function DockMonitorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [pageNum, setPageNum] = useState(1);
  const detail = useDockingDetail(id);
  const deliveries = useDockingDeliveries({ id, pageNum, pageSize: DELIVERIES_PAGE_SIZE });
  const docking = detail.data;

  return (
    <div>
      <Flex align="center" gap="small" wrap>
        <Link to={PLATFORM_LIST_PATH} aria-label={t('platformDock.monitor.back')}>
          <Button icon={<ArrowLeftOutlined />} aria-label={t('platformDock.monitor.back')} />
        </Link>
        <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
          {t('menu.dockMonitor')}
        </Typography.Title>
      </Flex>
      <Card style={{ marginTop: 16 }}>
        {detail.isError ? (
          <ListProblem error={detail.error} onRetry={() => void detail.refetch()} />
        ) : (
          docking && (
            <Descriptions
              column={{ xs: 1, md: 3 }}
              size="small"
              style={{ marginBottom: 16 }}
              data-testid="dock-detail"
            >
              <Descriptions.Item label={t('platformDock.list.platform')}>
                {docking.platformName}
              </Descriptions.Item>
              <Descriptions.Item label={t('platformDock.list.state')}>
                <DockingStateTag id={docking.id} state={docking.state} />
              </Descriptions.Item>
              <Descriptions.Item label={t('platformDock.list.monitors')}>
                {docking.deviceIds.length}
              </Descriptions.Item>
              <Descriptions.Item label={t('platformDock.list.applied')}>
                {`${formatTime(docking.applyTime)} ${docking.appliedBy}`}
              </Descriptions.Item>
              <Descriptions.Item label={t('platformDock.monitor.decided')}>
                {docking.decideTime ? formatTime(docking.decideTime) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('platformDock.monitor.queued')}>{docking.queued}</Descriptions.Item>
              <Descriptions.Item label={t('platformDock.monitor.lastDelivery')}>
                {docking.lastDeliveryAt ? formatTime(docking.lastDeliveryAt) : '-'}
              </Descriptions.Item>
              {docking.reason && (
                <Descriptions.Item label={t('platformDock.monitor.reason')}>
                  {docking.reason}
                </Descriptions.Item>
              )}
            </Descriptions>
          )
        )}
        <DeliveriesTable deliveries={deliveries} pageNum={pageNum} onPage={setPageNum} />
      </Card>
    </div>
  );
}
