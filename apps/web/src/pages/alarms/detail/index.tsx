import { ResolveAlarmRequest, ResolveState } from '@coldchain/contract';
import {
  App,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { sensorName } from '../../../components/labels';
import { useHasAuthTag } from '../../../session/queries';
import { SignPasswordField, signedBody, useSignCheck } from '../../../signature/SignPasswordField';
import { AlarmSnapshots } from '../../camera/AlarmSnapshots';
import { formatTime, formatValue } from '../../devices/format';
import { detailUrl as deviceDetailUrl } from '../../devices/paths';
import { LevelTag, ResolverName, ResolveStateTag } from '../components';
import { ALARM_INFO_PATH, contentIn, RESOLVE_TYPES } from '../format';
import { type AlarmDelivery, useAlarmDetail, useAlarmNotifications, useResolveAlarm } from '../queries';
import { AlarmEquipmentPause, pausedWhileOpen } from './AlarmEquipmentPause';
import { AlarmOriginNotes } from './AlarmOriginNotes';
import { ClearingNote } from './ClearingNote';

interface ResolveValues {
  resolveType: string;
  cause: string;
  action?: string;
  signPassword?: string;
}

/**
 * Delivered green, on its way blue, given up or not sendable red/orange (delivery-status.ts).
 * `sent` (the provider took it, its receipt may still say delivered or failed) is cyan, short of
 * the green of `delivered`.
 */
const DELIVERY_COLORS: Record<string, string> = {
  delivered: 'success',
  sent: 'cyan',
  pending: 'processing',
  sending: 'processing',
  retrying: 'warning',
  failed: 'error',
  'not configured': 'default',
  'no recipient address': 'warning',
  'no credit': 'error',
  'daily cap reached': 'warning',
  'service off': 'default',
};

/** States in which the server still accepts a resolution (docs/API.md). */
const RESOLVABLE: number[] = [ResolveState.Pending, ResolveState.InProgress, ResolveState.Normalized];

/** One alarm record with its resolution; users with alarm:resolve can resolve an open one. */
export default function AlarmDetailPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  // Opened from a monitor (`deviceAlarmDetail`): "back" returns to that monitor, not the alarm list.
  const fromDevice = useLocation().pathname.endsWith('/deviceAlarmDetail');
  const id = params.get('id');
  const detail = useAlarmDetail(id);
  const notifications = useAlarmNotifications(id);
  const canResolve = useHasAuthTag('alarm:resolve');
  const [resolving, setResolving] = useState(false);
  const [form] = Form.useForm<ResolveValues>();
  const resolve = useResolveAlarm();
  // The company's audit signature: with it on, resolving needs the signature password.
  const signCheck = useSignCheck();

  const submit = async (values: ResolveValues) => {
    if (!id) return;
    const { signPassword, ...rest } = values;
    const parsed = ResolveAlarmRequest.safeParse(
      signedBody(signCheck, { id, ...rest, action: values.action ?? '' }, signPassword),
    );
    if (!parsed.success) return;
    try {
      await resolve.mutateAsync(parsed.data);
      void message.success(t('alarms.resolve.done'));
      setResolving(false);
      form.resetFields();
    } catch {
      // The wrapper already showed the server's message.
    }
  };

  const alarm = detail.data;
  if (!alarm) {
    return detail.isPending && id ? <Spin /> : <Typography.Text>-</Typography.Text>;
  }
  const deliveries = notifications.data ?? [];

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap="middle">
        <Typography.Title level={2} data-testid="page-title">
          {t('alarms.detail.title')}
        </Typography.Title>
        <Flex gap="small">
          {fromDevice ? (
            <Link to={deviceDetailUrl(alarm.deviceId)} data-testid="alarm-detail-back">
              {t('alarms.detail.backToDevice')}
            </Link>
          ) : (
            <Link to={ALARM_INFO_PATH} data-testid="alarm-detail-back">
              {t('alarms.detail.back')}
            </Link>
          )}
          {canResolve && RESOLVABLE.includes(alarm.resolveState) && (
            <Button type="primary" onClick={() => setResolving(true)} data-testid="alarm-resolve-open">
              {t('alarms.resolve.open')}
            </Button>
          )}
        </Flex>
      </Flex>
      <AlarmOriginNotes alarm={alarm} />
      <AlarmEquipmentPause alarm={alarm} />
      {/* While paused the engine does not judge the sensor: no reading would end this alarm. */}
      {!pausedWhileOpen(alarm) && <ClearingNote alarm={alarm} />}
      <Card>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small" data-testid="alarm-detail">
          <Descriptions.Item label={t('alarms.column.type')}>
            <span data-testid="alarm-detail-type">
              {t(`alarms.type.${alarm.alarmType}`, { defaultValue: alarm.alarmType })}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.level')}>
            <LevelTag level={alarm.level} />
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.device')}>
            <span data-testid="alarm-detail-device">
              {alarm.deviceName} ({alarm.deviceSerial})
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.channel')}>
            {sensorName(t, alarm.channelName)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.time')}>{formatTime(alarm.alarmTime)}</Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.count')}>{alarm.count}</Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.content')} span={2}>
            <span data-testid="alarm-detail-content">{contentIn(i18n.language, alarm.content)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.detail.lastValue')}>
            <span data-testid="alarm-detail-last-value">{formatValue(alarm.lastValue)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.detail.peakValue')}>
            <span data-testid="alarm-detail-peak-value">{formatValue(alarm.peakValue)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.detail.endTime')}>
            {formatTime(alarm.endTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.resolveState')}>
            <ResolveStateTag state={alarm.resolveState} />
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.detail.resolveType')}>
            <span data-testid="alarm-detail-resolve-type">
              {alarm.resolveType
                ? t(`alarms.resolveType.${alarm.resolveType}`, { defaultValue: alarm.resolveType })
                : '-'}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.resolver')}>
            <span data-testid="alarm-detail-resolver">
              <ResolverName id={alarm.resolverId} name={alarm.resolverName} />
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.column.resolveTime')}>
            <span data-testid="alarm-detail-resolve-time">{formatTime(alarm.resolveTime)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.detail.cause')}>
            <span data-testid="alarm-detail-cause">{alarm.cause || '-'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarms.detail.action')}>{alarm.action || '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
      {/* The watching cameras' pictures (modules/camera); nothing without camera:view. */}
      <div style={{ marginTop: 16 }}>
        <AlarmSnapshots alarmId={alarm.id} />
      </div>
      <Card title={t('alarms.detail.notifications')} style={{ marginTop: 16 }}>
        <DataTable<AlarmDelivery>
          size="small"
          rowKey="id"
          dataSource={deliveries}
          loading={notifications.isPending}
          pagination={false}
          data-testid="alarm-deliveries"
          locale={{ emptyText: t('alarms.detail.noNotifications') }}
          onRow={(d) => ({ 'data-testid': `alarm-delivery-${d.id}` }) as HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('alarms.detail.person'), dataIndex: 'userName', key: 'userName' },
            {
              title: t('alarms.detail.channel'),
              dataIndex: 'channel',
              key: 'channel',
              render: (c: string) => t(`alarms.setting.channel.${c}`, { defaultValue: c }),
            },
            {
              title: t('alarms.detail.recipient'),
              dataIndex: 'recipient',
              key: 'recipient',
              render: (r: string) => r || '-',
            },
            {
              title: t('alarms.detail.status'),
              dataIndex: 'status',
              key: 'status',
              render: (_: string, d: AlarmDelivery) => (
                <Tag
                  color={DELIVERY_COLORS[d.status] ?? 'default'}
                  title={d.lastError ?? undefined}
                  data-testid="alarm-delivery-status"
                >
                  {t(`alarms.deliveryStatus.${d.status}`, { defaultValue: d.statusText || d.status })}
                </Tag>
              ),
            },
            {
              // The provider's reason for a message given up (a failed receipt says why), as it gave it.
              title: t('alarms.detail.deliveryError'),
              dataIndex: 'lastError',
              key: 'lastError',
              render: (_: string, d: AlarmDelivery) =>
                d.status === 'failed' && d.lastError ? (
                  <span data-testid="alarm-delivery-error">{d.lastError}</span>
                ) : (
                  '-'
                ),
            },
            {
              title: t('alarms.detail.attempts'),
              dataIndex: 'attempts',
              key: 'attempts',
              render: (n: number) => <span data-testid="alarm-delivery-attempts">{n}</span>,
            },
            {
              title: t('alarms.detail.sentAt'),
              dataIndex: 'sentAt',
              key: 'sentAt',
              render: (ts: number | null) => formatTime(ts),
            },
          ]}
        />
      </Card>
      <Modal
        open={resolving}
        title={t('alarms.resolve.title')}
        onCancel={() => setResolving(false)}
        mask={{ closable: false }}
        destroyOnHidden
        footer={
          <>
            <Button onClick={() => setResolving(false)}>{t('alarms.resolve.cancel')}</Button>
            <Button
              type="primary"
              loading={resolve.isPending}
              onClick={() => form.submit()}
              data-testid="alarm-resolve-submit"
            >
              {t('alarms.resolve.submit')}
            </Button>
          </>
        }
      >
        <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
          <Form.Item
            name="resolveType"
            label={t('alarms.resolve.type')}
            initialValue="handled"
            rules={[{ required: true, message: t('alarms.resolve.typeRequired') }]}
          >
            <Select
              data-testid="alarm-resolve-type"
              options={RESOLVE_TYPES.map((type) => ({ value: type, label: t(`alarms.resolveType.${type}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="cause"
            label={t('alarms.resolve.cause')}
            rules={[
              { required: true, whitespace: true, message: t('alarms.resolve.causeRequired') },
              { max: 500 },
            ]}
          >
            <Input.TextArea rows={3} data-testid="alarm-resolve-cause" />
          </Form.Item>
          <Form.Item name="action" label={t('alarms.resolve.action')} rules={[{ max: 500 }]}>
            <Input.TextArea rows={3} data-testid="alarm-resolve-action" />
          </Form.Item>
          <SignPasswordField testId="alarm-resolve-sign-password" />
        </Form>
      </Modal>
    </div>
  );
}
