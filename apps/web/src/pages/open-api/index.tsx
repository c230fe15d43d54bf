import { ApiOutlined, HistoryOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import type { CreatedOpenApiKey, OpenApiKeyView } from '@coldchain/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Popconfirm,
  Space,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useHasAuthTag } from '../../session/queries';
import { formatTime } from '../devices/format';
import { ApiDocument } from './ApiDocument';
import { refusalOf, useOpenApiKeys, useRevokeKey } from './api';
import { CreatedKeyDialog } from './CreatedKeyDialog';
import { CreateKeyModal } from './CreateKeyModal';
import { ListProblem } from './ListProblem';
import { type OpenApiTab, openDeviceUrl } from './paths';
import { SigningGuide } from './SigningGuide';
import { UsageDrawer } from './UsageDrawer';

/**
 * `OpenApi`: the company's open-API keys, creating (secret shown once), revoking, usage, signing
 * help; and, as a second tab (`?tab=document`), the API document.
 */
export default function OpenApiKeysPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: OpenApiTab = params.get('tab') === 'document' ? 'document' : 'keys';
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('docking:edit');
  const keys = useOpenApiKeys();
  const revoke = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedOpenApiKey | null>(null);
  const [usageOf, setUsageOf] = useState<OpenApiKeyView | null>(null);
  const refused = keys.isError && refusalOf(keys.error) !== null;
  const copyable = { tooltips: [t('openApi.common.copy'), t('openApi.common.copied')] };

  const columns: TableColumnsType<OpenApiKeyView> = [
    { title: t('openApi.keys.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('openApi.keys.appKey'),
      dataIndex: 'appKey',
      key: 'appKey',
      render: (appKey: string) => (
        <Typography.Text code copyable={copyable} data-testid="key-app-key">
          {appKey}
        </Typography.Text>
      ),
    },
    {
      title: t('openApi.keys.devices'),
      key: 'devices',
      render: (_, k) => k.deviceIds.length,
    },
    { title: t('openApi.keys.callsToday'), dataIndex: 'callsToday', key: 'callsToday' },
    {
      title: t('openApi.keys.lastUsed'),
      key: 'lastUsed',
      render: (_, k) => (k.lastUsedAt ? formatTime(k.lastUsedAt) : t('openApi.keys.never')),
    },
    {
      title: t('openApi.keys.createdBy'),
      dataIndex: 'createdBy',
      key: 'createdBy',
      render: (v: string) => v || '-',
    },
    { title: t('openApi.keys.createTime'), key: 'createTime', render: (_, k) => formatTime(k.createTime) },
    {
      title: t('openApi.keys.state'),
      key: 'state',
      render: (_, k) => (
        <Tag color={k.state === 'active' ? 'green' : 'default'} data-testid={`key-state-${k.id}`}>
          {t(`openApi.keys.states.${k.state}`)}
        </Tag>
      ),
    },
    {
      title: t('openApi.common.actions'),
      key: 'actions',
      render: (_, k) => (
        <Space size="small" wrap>
          <Button
            size="small"
            icon={<HistoryOutlined />}
            onClick={() => setUsageOf(k)}
            data-testid={`key-usage-${k.id}`}
          >
            {t('openApi.keys.usage')}
          </Button>
          {k.state === 'active' && (
            <Link to={openDeviceUrl(k.id)} data-testid={`key-devices-${k.id}`}>
              <Button size="small" icon={<ApiOutlined />}>
                {t('openApi.keys.openDevices')}
              </Button>
            </Link>
          )}
          {canEdit && k.state === 'active' && (
            <Popconfirm
              title={t('openApi.keys.revokeConfirm')}
              okText={t('openApi.keys.revoke')}
              cancelText={t('openApi.common.cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'key-revoke-confirm' }}
              onConfirm={() =>
                revoke
                  .mutateAsync(k.id)
                  .then(() => void message.success(t('openApi.keys.revoked')))
                  .catch(() => undefined)
              }
            >
              <Button size="small" danger icon={<StopOutlined />} data-testid={`key-revoke-${k.id}`}>
                {t('openApi.keys.revoke')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.OpenApi')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(next) => setParams(next === 'document' ? { tab: next } : {})}
        data-testid="open-api-tabs"
        items={[
          {
            key: 'keys',
            label: t('openApi.tabs.keys'),
            children: (
              <Flex vertical gap="middle">
                <Card>
                  {refused ? (
                    <ListProblem error={keys.error} onRetry={() => void keys.refetch()} />
                  ) : (
                    <>
                      <Flex
                        justify="space-between"
                        align="center"
                        gap="middle"
                        wrap
                        style={{ marginBottom: 16 }}
                      >
                        {canEdit ? (
                          <span />
                        ) : (
                          <Alert type="info" showIcon title={t('openApi.keys.readOnly')} />
                        )}
                        {canEdit && (
                          <Button
                            type="primary"
                            icon={<PlusOutlined />}
                            onClick={() => setCreating(true)}
                            data-testid="key-create-open"
                          >
                            {t('openApi.keys.create')}
                          </Button>
                        )}
                      </Flex>
                      {keys.isError ? (
                        <ListProblem error={keys.error} onRetry={() => void keys.refetch()} />
                      ) : (
                        <DataTable<OpenApiKeyView>
                          rowKey="id"
                          keyColumns={['state']}
                          columns={columns}
                          dataSource={keys.data?.list ?? []}
                          loading={keys.isFetching}
                          locale={{ emptyText: t('openApi.keys.empty') }}
                          onRow={(k) => ({ 'data-testid': `key-row-${k.id}` }) as object}
                          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
                        />
                      )}
                    </>
                  )}
                </Card>
                {!refused && <SigningGuide />}
              </Flex>
            ),
          },
          {
            key: 'document',
            label: <span data-testid="open-api-tab-document">{t('openApi.tabs.document')}</span>,
            // Built only when opened: Swagger UI is a download of its own.
            children: <ApiDocument />,
          },
        ]}
      />
      {creating && (
        <CreateKeyModal
          onClose={() => setCreating(false)}
          onCreated={(answer) => {
            setCreating(false);
            setCreated(answer);
          }}
        />
      )}
      {created && <CreatedKeyDialog created={created} onClose={() => setCreated(null)} />}
      {usageOf && <UsageDrawer apiKey={usageOf} onClose={() => setUsageOf(null)} />}
    </div>
  );
}
