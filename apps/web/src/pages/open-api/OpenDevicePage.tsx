import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { type DeviceView, OPEN_API_MAX_DEVICES } from '@coldchain/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Select,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useHasAuthTag } from '../../session/queries';
import { StateTag } from '../devices/components/StateTag';
import { useDevicePage, useOpenApiKeys, useSetKeyDevices } from './api';
import { ListProblem } from './ListProblem';

const PAGE_SIZE = 50;
/** Opened devices listed by name at most; the rest are counted. */
const SHOWN_TAGS = 100;

/** The chosen key's edited device list; `ids` null while it equals what the server holds. */
interface Draft {
  keyId: string;
  ids: string[] | null;
}

/** `OpenDevice`: which of the company's devices an active key may read (`/api/openApi/setDevices`). */
export default function OpenDevicePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('docking:edit');
  const [params, setParams] = useSearchParams();
  const keys = useOpenApiKeys();
  const save = useSetKeyDevices();
  const active = (keys.data?.list ?? []).filter((k) => k.state === 'active');
  const wanted = params.get('keyId');
  const key = active.find((k) => k.id === wanted) ?? active[0] ?? null;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const devices = useDevicePage({ pageNum, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) });
  // Names of every device seen on any page, so the opened list names devices beyond this page.
  const names = useRef(new Map<string, Pick<DeviceView, 'name' | 'serial'>>());
  for (const d of devices.data?.list ?? []) names.current.set(d.id, { name: d.name, serial: d.serial });

  // Another key chosen: its own list, not the previous key's unsaved edits.
  const edited = draft && key && draft.keyId === key.id ? draft.ids : null;
  const selected = edited ?? key?.deviceIds ?? [];
  const dirty = edited !== null;
  const tooMany = selected.length > OPEN_API_MAX_DEVICES;

  const choose = (ids: string[]) => key && setDraft({ keyId: key.id, ids });

  const submit = async () => {
    if (!key) return;
    try {
      await save.mutateAsync({ id: key.id, deviceIds: selected });
      setDraft(null);
      void message.success(t('openApi.devices.saved'));
    } catch {
      // The request wrapper showed the server's message; the edits stay for another try.
    }
  };

  const columns: TableColumnsType<DeviceView> = [
    { title: t('openApi.devices.serial'), dataIndex: 'serial', key: 'serial' },
    { title: t('openApi.devices.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('openApi.devices.state'),
      key: 'state',
      render: (_, d) => <StateTag state={d.state} lastSeenTime={d.lastSeenTime} />,
    },
  ];

  const label = (id: string) => {
    const known = names.current.get(id);
    return known ? `${known.name} (${known.serial})` : t('openApi.devices.deviceById', { id });
  };

  const title = (
    <Typography.Title level={2} data-testid="page-title">
      {t('menu.OpenDevice')}
    </Typography.Title>
  );

  if (keys.isError) {
    return (
      <div>
        {title}
        <Card>
          <ListProblem error={keys.error} onRetry={() => void keys.refetch()} />
        </Card>
      </div>
    );
  }

  return (
    <div>
      {title}
      <Flex vertical gap="middle">
        <Card>
          <Flex gap="middle" align="center" wrap>
            <Typography.Text strong>{t('openApi.devices.pickKey')}</Typography.Text>
            <Select
              style={{ minWidth: 240, maxWidth: '100%' }}
              loading={keys.isLoading}
              value={key?.id}
              placeholder={t('openApi.devices.pickKeyPlaceholder')}
              options={active.map((k) => ({ value: k.id, label: `${k.name} (${k.appKey})` }))}
              onChange={(id: string) => setParams({ keyId: id }, { replace: true })}
              notFoundContent={t('openApi.devices.noActiveKeys')}
              aria-label={t('openApi.devices.pickKey')}
              data-testid="open-device-key"
            />
          </Flex>
          {!keys.isLoading && active.length === 0 && (
            <Empty
              style={{ marginTop: 16 }}
              description={t('openApi.devices.noActiveKeys')}
              data-testid="open-device-no-keys"
            />
          )}
        </Card>
        {key && (
          <>
            <Card
              title={t('openApi.devices.opened', { count: selected.length })}
              data-testid="open-device-current"
            >
              {canEdit && (
                <Flex gap="small" wrap align="center" style={{ marginBottom: 12 }}>
                  <Button icon={<UndoOutlined />} disabled={!dirty} onClick={() => setDraft(null)}>
                    {t('openApi.devices.reset')}
                  </Button>
                  <Button
                    type="primary"
                    icon={<SaveOutlined />}
                    disabled={!dirty || tooMany}
                    loading={save.isPending}
                    onClick={submit}
                    data-testid="open-device-save"
                  >
                    {t('openApi.devices.save')}
                  </Button>
                  {dirty && <Tag color="orange">{t('openApi.devices.unsaved')}</Tag>}
                </Flex>
              )}
              {!canEdit && (
                <Alert
                  type="info"
                  showIcon
                  title={t('openApi.devices.readOnly')}
                  style={{ marginBottom: 12 }}
                />
              )}
              {tooMany && (
                <Alert
                  type="error"
                  showIcon
                  title={t('openApi.devices.tooMany', { max: OPEN_API_MAX_DEVICES })}
                  style={{ marginBottom: 12 }}
                />
              )}
              {selected.length === 0 ? (
                <Typography.Text type="secondary">{t('openApi.devices.openedNone')}</Typography.Text>
              ) : (
                <Flex wrap gap={4}>
                  {selected.slice(0, SHOWN_TAGS).map((id) => (
                    <Tag
                      key={id}
                      closable={canEdit}
                      onClose={() => choose(selected.filter((s) => s !== id))}
                      data-testid={`opened-${id}`}
                    >
                      {label(id)}
                    </Tag>
                  ))}
                  {selected.length > SHOWN_TAGS && <Tag>+{selected.length - SHOWN_TAGS}</Tag>}
                </Flex>
              )}
            </Card>
            <Card>
              <Input.Search
                allowClear
                placeholder={t('openApi.devices.search')}
                aria-label={t('openApi.devices.search')}
                style={{ maxWidth: 360, marginBottom: 12 }}
                onSearch={(value) => {
                  setKeyword(value.trim());
                  setPageNum(1);
                }}
                data-testid="open-device-search"
              />
              {devices.isError ? (
                <ListProblem error={devices.error} onRetry={() => void devices.refetch()} />
              ) : (
                <DataTable<DeviceView>
                  rowKey="id"
                  columns={columns}
                  dataSource={devices.data?.list ?? []}
                  loading={devices.isFetching}
                  locale={{ emptyText: t('openApi.devices.empty') }}
                  onRow={(d) => ({ 'data-testid': `open-device-row-${d.serial}` }) as object}
                  rowSelection={{
                    selectedRowKeys: selected,
                    preserveSelectedRowKeys: true,
                    onChange: (ids) => choose(ids.map(String)),
                    getCheckboxProps: () => ({ disabled: !canEdit }),
                  }}
                  pagination={{
                    current: pageNum,
                    pageSize: PAGE_SIZE,
                    total: devices.data?.total ?? 0,
                    showSizeChanger: false,
                    hideOnSinglePage: true,
                    onChange: setPageNum,
                  }}
                />
              )}
            </Card>
          </>
        )}
      </Flex>
    </div>
  );
}
