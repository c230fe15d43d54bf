import {
  AlertOutlined,
  EditOutlined,
  ExportOutlined,
  KeyOutlined,
  PlusOutlined,
  SearchOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import type { DeviceView } from '@coldchain/contract';
import { Limits } from '@coldchain/contract';
import { App, Button, Card, Flex, Input, Space, type TableColumnsType, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { sensorName } from '../../components/labels';
import { useHasAuthTag } from '../../session/queries';
import { useCanExport } from '../../signature/SignPasswordField';
import { RenewSelectedButton } from '../billing/RenewSelectedButton';
import { BatchAlarmSettingModal } from './batch/BatchAlarmSettingModal';
import { BatchExportModal } from './batch/BatchExportModal';
import { BatchPermissionModal } from './batch/BatchPermissionModal';
import { BatchTransferModal } from './batch/BatchTransferModal';
import { AddDeviceModal } from './components/AddDeviceModal';
import { type Place, PlaceFilter } from './components/PlaceFilter';
import { StateFilter } from './components/StateFilter';
import { StateTag } from './components/StateTag';
import { useCanEditDevice } from './edit/EditDeviceButton';
import { EditDeviceModal } from './edit/EditDeviceModal';
import { DEVICE_STATES, formatSensorValue, formatTime } from './format';
import { detailUrl } from './paths';
import { useDevicePage, useStateCounts } from './queries';

export { DETAIL_PATH, detailUrl } from './paths';

const PAGE_SIZE = 20;

/** `?state=n` comes from the home page's overview links; anything else means all states. */
function parseState(raw: string | null): number | null {
  const n = Number(raw);
  return (DEVICE_STATES as readonly number[]).includes(n) ? n : null;
}

/** Monitors: state tabs with counts, a debounced search and the paged table (spec sections 2-4). */
export default function MonitoringDevicePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const state = parseState(params.get('state'));
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [place, setPlace] = useState<Place>(null);
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const canEditDevice = useCanEditDevice();
  const canEdit = useHasAuthTag('device:edit');
  // The role's export right and the member's export flag (company administrator's) both apply.
  const exportAllowed = useCanExport();
  const canExport = useHasAuthTag('device:export') && exportAllowed;
  const canSetAlarms = useHasAuthTag('alarm:edit');
  const { message } = App.useApp();
  // Selection survives paging, so a batch can span pages (spec section 2 batch dialogs).
  const [selected, setSelected] = useState<string[]>([]);
  const [batch, setBatch] = useState<'transfer' | 'permission' | 'export' | 'alarm' | null>(null);
  const openBatch = (kind: 'transfer' | 'permission' | 'export' | 'alarm') => {
    // Spec section 8: "Select at least one device, time period or record".
    if (selected.length === 0) void message.warning(t('devices.batch.selectRequired'));
    else setBatch(kind);
  };
  const closeBatch = (done: boolean) => {
    setBatch(null);
    if (done) setSelected([]);
  };

  // Spec section 9: the server is asked only once typing pauses for the debounce time.
  useEffect(() => {
    const timer = setTimeout(() => {
      setKeyword(search.trim());
      setPageNum(1);
    }, Limits.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const counts = useStateCounts();
  const page = useDevicePage({
    pageNum,
    pageSize: PAGE_SIZE,
    ...(state === null ? {} : { state }),
    ...(keyword ? { keyword } : {}),
    ...place,
  });

  const changeState = (next: number | null) => {
    setPageNum(1);
    setParams(next === null ? {} : { state: String(next) }, { replace: true });
  };

  const columns: TableColumnsType<DeviceView> = [
    { title: t('devices.column.serial'), dataIndex: 'serial', key: 'serial' },
    {
      title: t('devices.column.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, device) => (
        <Link to={detailUrl(device.id)} onClick={(e) => e.stopPropagation()} data-testid="device-link">
          {name}
        </Link>
      ),
    },
    { title: t('devices.column.model'), dataIndex: 'model', key: 'model' },
    {
      title: t('devices.column.version'),
      dataIndex: 'version',
      key: 'version',
      render: (version: string) => t(`devices.version.${version}`, { defaultValue: version }),
    },
    {
      title: t('devices.column.state'),
      dataIndex: 'state',
      key: 'state',
      render: (value: number, device) => <StateTag state={value} lastSeenTime={device.lastSeenTime} />,
    },
    {
      title: t('devices.column.sensors'),
      key: 'sensors',
      render: (_, device) => (
        <Flex vertical data-testid="device-sensors">
          {device.sensors.map((s) => (
            <span key={s.id}>
              <Typography.Text type="secondary">{sensorName(t, s.name)}: </Typography.Text>
              {formatSensorValue(s)}
            </span>
          ))}
        </Flex>
      ),
    },
    {
      title: t('devices.column.lastUpdate'),
      dataIndex: 'lastSeenTime',
      key: 'lastSeenTime',
      render: (ts: number | null) => formatTime(ts),
    },
    {
      title: t('devices.column.expireTime'),
      dataIndex: 'expireTime',
      key: 'expireTime',
      render: (ts: number) => formatTime(ts),
    },
    ...(canEdit
      ? [
          {
            title: t('devices.edit.column'),
            key: 'actions',
            render: (_: unknown, device: DeviceView) =>
              canEditDevice(device) && (
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={(e) => {
                    // The row itself opens the detail page.
                    e.stopPropagation();
                    setEditingId(device.id);
                  }}
                  data-testid={`edit-device-open-${device.serial}`}
                >
                  {t('devices.edit.open')}
                </Button>
              ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.monitoringDevice')}
      </Typography.Title>
      <Card>
        <StateFilter value={state} counts={counts.data} onChange={changeState} />
        <Flex justify="space-between" gap="middle" wrap style={{ marginBottom: 16 }}>
          <Space wrap>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('devices.searchPlaceholder')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              style={{ maxWidth: 320 }}
              data-testid="device-search"
            />
            <PlaceFilter
              onChange={(next) => {
                setPlace(next);
                setPageNum(1);
              }}
            />
          </Space>
          <Space wrap>
            {(canEdit || canExport || canSetAlarms) && selected.length > 0 && (
              <Typography.Text type="secondary" data-testid="batch-selected">
                {t('devices.batch.selected', { count: selected.length })}
              </Typography.Text>
            )}
            {canEdit && (
              <Button
                icon={<SwapOutlined />}
                onClick={() => openBatch('transfer')}
                data-testid="batch-transfer-open"
              >
                {t('devices.batch.transfer.open')}
              </Button>
            )}
            {canEdit && (
              <Button
                icon={<KeyOutlined />}
                onClick={() => openBatch('permission')}
                data-testid="batch-permission-open"
              >
                {t('devices.batch.permission.open')}
              </Button>
            )}
            {canSetAlarms && (
              <Button
                icon={<AlertOutlined />}
                onClick={() => openBatch('alarm')}
                data-testid="batch-alarm-setting-open"
              >
                {t('alarms.batchSetting.open')}
              </Button>
            )}
            <RenewSelectedButton deviceIds={selected} />
            {canExport && (
              <Button
                icon={<ExportOutlined />}
                onClick={() => openBatch('export')}
                data-testid="batch-export-open"
              >
                {t('devices.batch.export.open')}
              </Button>
            )}
            {canEdit && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setAdding(true)}
                data-testid="add-device-open"
              >
                {t('devices.add.open')}
              </Button>
            )}
          </Space>
        </Flex>
        <DataTable<DeviceView>
          rowKey="id"
          keyColumns={['state']}
          rowSelection={
            canEdit || canExport || canSetAlarms
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys.map(String)),
                }
              : undefined
          }
          columns={columns}
          dataSource={page.data?.list ?? []}
          loading={page.isFetching}
          onRow={(device) => ({
            onClick: () => navigate(detailUrl(device.id)),
            style: { cursor: 'pointer' },
            'data-testid': `device-row-${device.serial}`,
          })}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: page.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (count) => t('devices.total', { count }),
            onChange: setPageNum,
          }}
        />
      </Card>
      <AddDeviceModal open={adding} onClose={() => setAdding(false)} />
      <EditDeviceModal deviceId={editingId} onClose={() => setEditingId(null)} />
      <BatchTransferModal deviceIds={selected} open={batch === 'transfer'} onClose={closeBatch} />
      <BatchPermissionModal deviceIds={selected} open={batch === 'permission'} onClose={closeBatch} />
      <BatchExportModal deviceIds={selected} open={batch === 'export'} onClose={closeBatch} />
      <BatchAlarmSettingModal deviceIds={selected} open={batch === 'alarm'} onClose={closeBatch} />
    </div>
  );
}
