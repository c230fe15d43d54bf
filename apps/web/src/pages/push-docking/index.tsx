import {
  ApiOutlined,
  EditOutlined,
  HistoryOutlined,
  PlusOutlined,
  SendOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { PushUrlState, type PushUrlView } from '@coldchain/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Popconfirm,
  Space,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useHasAuthTag } from '../../session/queries';
import { ListProblem } from '../open-api/ListProblem';
import { usePushUrls, useStopPushUrl, useTestPushUrl } from './api';
import { DevicesModal } from './DevicesModal';
import { pushDeliveriesUrl } from './paths';
import { SaveUrlModal } from './SaveUrlModal';
import { SecretDialog } from './SecretDialog';
import { StateTag } from './StateTag';

/**
 * `customizedPushDevice`: the company's push addresses with their events and state; adding one
 * (secret shown once), editing, a test delivery (which enables a pending address), its devices,
 * its deliveries and stopping it.
 */
export default function PushDockingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('docking:edit');
  const urls = usePushUrls();
  const test = useTestPushUrl();
  const stop = useStopPushUrl();
  const [editing, setEditing] = useState<PushUrlView | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [devicesOf, setDevicesOf] = useState<PushUrlView | null>(null);

  const runTest = async (u: PushUrlView) => {
    const result = await test.mutateAsync(u.id).catch(() => null);
    if (!result) return;
    if (result.ok) void message.success(t('pushDock.test.ok', { status: result.httpStatus }));
    else void message.error(t('pushDock.test.failed', { error: result.error || '-' }));
  };

  const columns: TableColumnsType<PushUrlView> = [
    { title: t('pushDock.list.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('pushDock.list.url'),
      dataIndex: 'url',
      key: 'url',
      render: (url: string) => (
        <Typography.Text style={{ wordBreak: 'break-all' }} data-testid="push-row-url">
          {url}
        </Typography.Text>
      ),
    },
    {
      title: t('pushDock.list.events'),
      key: 'events',
      render: (_, u) => (
        <Flex wrap gap={4}>
          {u.events.map((e) => (
            <Tag key={e}>{t(`pushDock.events.${e}`)}</Tag>
          ))}
        </Flex>
      ),
    },
    { title: t('pushDock.list.devices'), key: 'devices', render: (_, u) => u.deviceIds.length },
    { title: t('pushDock.list.queued'), dataIndex: 'queued', key: 'queued' },
    {
      title: t('pushDock.list.state'),
      key: 'state',
      render: (_, u) => <StateTag id={u.id} state={u.state} />,
    },
    {
      title: t('pushDock.common.actions'),
      key: 'actions',
      render: (_, u) => {
        const stopped = u.state === PushUrlState.Stopped;
        return (
          <Space size="small" wrap>
            <Link to={pushDeliveriesUrl(u.id)} data-testid={`push-deliveries-${u.id}`}>
              <Button size="small" icon={<HistoryOutlined />}>
                {t('pushDock.list.deliveries')}
              </Button>
            </Link>
            {canEdit && (
              <Button
                size="small"
                icon={<EditOutlined />}
                onClick={() => setEditing(u)}
                data-testid={`push-edit-${u.id}`}
              >
                {t('pushDock.list.edit')}
              </Button>
            )}
            {canEdit && !stopped && (
              <Button
                size="small"
                icon={<SendOutlined />}
                loading={test.isPending && test.variables === u.id}
                onClick={() => void runTest(u)}
                data-testid={`push-test-${u.id}`}
              >
                {t('pushDock.list.test')}
              </Button>
            )}
            {canEdit && !stopped && (
              <Button
                size="small"
                icon={<ApiOutlined />}
                onClick={() => setDevicesOf(u)}
                data-testid={`push-devices-${u.id}`}
              >
                {t('pushDock.list.chooseDevices')}
              </Button>
            )}
            {canEdit && !stopped && (
              <Popconfirm
                title={t('pushDock.list.stopConfirm')}
                okText={t('pushDock.list.stop')}
                cancelText={t('pushDock.common.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'push-stop-confirm' }}
                onConfirm={() =>
                  stop
                    .mutateAsync(u.id)
                    .then(() => void message.success(t('pushDock.list.stopped')))
                    .catch(() => undefined)
                }
              >
                <Button size="small" danger icon={<StopOutlined />} data-testid={`push-stop-${u.id}`}>
                  {t('pushDock.list.stop')}
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
        {t('menu.customizedPushDevice')}
      </Typography.Title>
      <Card>
        {urls.isError ? (
          <ListProblem error={urls.error} onRetry={() => void urls.refetch()} />
        ) : (
          <>
            <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 16 }}>
              <Typography.Text type="secondary">{t('pushDock.list.intro')}</Typography.Text>
              {canEdit ? (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing('new')}
                  data-testid="push-add"
                >
                  {t('pushDock.list.add')}
                </Button>
              ) : (
                <Alert type="info" showIcon title={t('pushDock.list.readOnly')} />
              )}
            </Flex>
            <DataTable<PushUrlView>
              rowKey="id"
              keyColumns={['state']}
              columns={columns}
              dataSource={urls.data?.list ?? []}
              loading={urls.isFetching}
              locale={{ emptyText: t('pushDock.list.empty') }}
              onRow={(u) => ({ 'data-testid': `push-row-${u.id}` }) as object}
              pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            />
          </>
        )}
      </Card>
      {editing && (
        <SaveUrlModal
          editing={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            if (saved.secret) setSecret(saved.secret);
            else void message.success(t('pushDock.save.saved'));
          }}
        />
      )}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
      {devicesOf && <DevicesModal address={devicesOf} onClose={() => setDevicesOf(null)} />}
    </div>
  );
}
