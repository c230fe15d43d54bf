import { PlusOutlined } from '@ant-design/icons';
import { type AlarmSettingView, Limits } from '@coldchain/contract';
import {
  App,
  Button,
  Card,
  Empty,
  Flex,
  Popconfirm,
  Select,
  Space,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { sensorName } from '../../../components/labels';
import { useHasAuthTag } from '../../../session/queries';
import { useDeviceDetail, useDevicePage } from '../../devices/queries';
import { LevelTag } from '../components';
import { useAlarmSettings, useDeleteAlarmSetting } from '../queries';
import { SettingModal } from './SettingModal';

const show = (v: number | null) => (v === null ? '' : String(v));

/** Alarm settings (spec section 3, 5): pick a monitor and a sensor, then add, edit or delete. */
export default function AlarmSettingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('alarm:edit');
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [deviceId, setDeviceId] = useState<string | undefined>();
  const [sensorId, setSensorId] = useState<string | undefined>();
  const [modal, setModal] = useState<{ editing: AlarmSettingView | null } | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setKeyword(search.trim()), Limits.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const devices = useDevicePage({ pageNum: 1, pageSize: 50, ...(keyword ? { keyword } : {}) });
  const detail = useDeviceDetail(deviceId ?? null);
  const sensors = detail.data?.sensors ?? [];
  const settings = useAlarmSettings(
    deviceId ? { ...(sensorId ? { sensorId } : { deviceId }), pageNum: 1, pageSize: 200 } : null,
  );
  const remove = useDeleteAlarmSetting();

  const sensorLabel = (id: string | null) => {
    const s = sensors.find((x) => x.id === id);
    return s ? `${s.channel} · ${sensorName(t, s.name)}` : '-';
  };

  const columns: TableColumnsType<AlarmSettingView> = [
    {
      title: t('alarms.setting.target'),
      key: 'target',
      render: (_, s) =>
        s.carrier === 'device' ? t('alarms.setting.carrierDevice') : sensorLabel(s.sensorId),
    },
    {
      title: t('alarms.setting.alarmType'),
      dataIndex: 'alarmType',
      key: 'alarmType',
      render: (type: string) => t(`alarms.type.${type}`, { defaultValue: type }),
    },
    {
      title: t('alarms.setting.level'),
      dataIndex: 'level',
      key: 'level',
      render: (level: number) => <LevelTag level={level} />,
    },
    {
      title: t('alarms.setting.limits'),
      key: 'limits',
      render: (_, s) => (
        <Flex vertical>
          {(s.min !== null || s.max !== null) && (
            <span>
              {show(s.min)} ~ {show(s.max)}
            </span>
          )}
          {(s.preMin !== null || s.preMax !== null) && (
            <Typography.Text type="secondary">
              {t('alarms.type.preAlarm')}: {show(s.preMin)} ~ {show(s.preMax)}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { title: t('alarms.setting.repeat'), dataIndex: 'repeat', key: 'repeat' },
    {
      title: t('alarms.setting.timeSlot'),
      key: 'timeSlot',
      render: (_, s) =>
        s.timeSlot === 'allDay'
          ? t('alarms.setting.allDay')
          : s.periods.map((p) => `${p.start}-${p.end}`).join(', '),
    },
    {
      title: t('alarms.setting.channels'),
      key: 'channels',
      render: (_, s) => s.channels.map((c) => <Tag key={c}>{t(`alarms.setting.channel.${c}`)}</Tag>),
    },
    {
      title: t('alarms.setting.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      render: (on: boolean) => (on ? t('alarms.setting.yes') : t('alarms.setting.no')),
    },
    ...(canEdit
      ? [
          {
            title: '',
            key: 'actions',
            render: (_: unknown, s: AlarmSettingView) => (
              <Space>
                <Button size="small" onClick={() => setModal({ editing: s })} data-testid="setting-edit">
                  {t('alarms.setting.edit')}
                </Button>
                <Popconfirm
                  title={t('alarms.setting.deleteConfirm')}
                  onConfirm={async () => {
                    try {
                      await remove.mutateAsync(s.id);
                      void message.success(t('alarms.setting.deleted'));
                    } catch {
                      // shown by the wrapper
                    }
                  }}
                >
                  <Button size="small" danger data-testid="setting-delete">
                    {t('alarms.setting.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.alarmSetting')}
      </Typography.Title>
      <Card>
        <Flex gap="middle" wrap style={{ marginBottom: 16 }} justify="space-between">
          <Flex gap="middle" wrap>
            <Select
              showSearch={{ filterOption: false, onSearch: setSearch }}
              placeholder={t('alarms.setting.devicePlaceholder')}
              aria-label={t('alarms.setting.devicePlaceholder')}
              style={{ minWidth: 280 }}
              value={deviceId}
              onChange={(value: string) => {
                setDeviceId(value);
                setSensorId(undefined);
              }}
              options={(devices.data?.list ?? []).map((d) => ({
                value: d.id,
                label: `${d.serial} · ${d.name}`,
              }))}
              data-testid="setting-device"
            />
            <Select
              allowClear
              disabled={!deviceId}
              placeholder={t('alarms.setting.sensorPlaceholder')}
              aria-label={t('alarms.setting.sensorPlaceholder')}
              style={{ minWidth: 220 }}
              value={sensorId}
              onChange={(value?: string) => setSensorId(value)}
              options={sensors.map((s) => ({
                value: s.id,
                label: `${s.channel} · ${sensorName(t, s.name)}`,
              }))}
              data-testid="setting-sensor-filter"
            />
          </Flex>
          {canEdit && deviceId && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!detail.data}
              onClick={() => setModal({ editing: null })}
              data-testid="setting-add"
            >
              {t('alarms.setting.add')}
            </Button>
          )}
        </Flex>
        {deviceId ? (
          <DataTable<AlarmSettingView>
            rowKey="id"
            columns={columns}
            dataSource={settings.data?.list ?? []}
            loading={settings.isFetching}
            pagination={false}
            onRow={(s) => ({ 'data-testid': `setting-row-${s.id}` }) as React.HTMLAttributes<HTMLElement>}
          />
        ) : (
          <Empty description={t('alarms.setting.pickDevice')} />
        )}
      </Card>
      {deviceId && (
        <SettingModal
          open={modal !== null}
          deviceId={deviceId}
          sensors={sensors}
          sensorId={sensorId}
          editing={modal?.editing ?? null}
          onClose={() => setModal(null)}
          onSaved={() => {
            void message.success(t('alarms.setting.saved'));
            setModal(null);
          }}
        />
      )}
    </div>
  );
}
