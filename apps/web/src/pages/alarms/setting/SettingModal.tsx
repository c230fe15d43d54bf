import {
  ALARM_BATCH_MAX_CHANNEL,
  ALARM_CHANNEL_SERVICES,
  type AlarmChannel,
  AlarmChannels,
  type AlarmSettingView,
  AlarmTypes,
  type SensorView,
} from '@coldchain/contract';
import {
  Alert,
  Button,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Switch,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sensorName } from '../../../components/labels';
import { usePowers, useUserInfo } from '../../../session/queries';
import { useBatchSaveAlarmSetting, useMemberOptions, useSaveAlarmSetting } from '../queries';
import {
  defaultValues,
  ESCALATION_LEVELS,
  type SettingValues,
  validateBatchSetting,
  validateSetting,
  valuesOf,
} from './setting-form';

/** Spec section 9: a reminder when fewer than 3 people are notified. */
export const NOTIFIER_REMINDER_BELOW = 3;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

interface Props {
  open: boolean;
  deviceId: string;
  sensors: SensorView[];
  /** The sensor picked on the page, preset for a new setting. */
  sensorId?: string;
  editing: AlarmSettingView | null;
  /**
   * Batch alarm setting (spec section 2 dialogs): the monitors selected on the monitor list. The
   * form then offers "each monitor" or "a channel of each monitor" instead of one sensor.
   */
  batchDeviceIds?: string[];
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Adds or edits an alarm setting (spec section 5). The contract's schema checks the values
 * before the call; the server's own refusals are shown by the request wrapper.
 */
export function SettingModal({
  open,
  deviceId,
  sensors,
  sensorId,
  editing,
  batchDeviceIds,
  onClose,
  onSaved,
}: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingValues>();
  const me = useUserInfo().data;
  const single = useSaveAlarmSetting();
  const batch = useBatchSaveAlarmSetting();
  const save = batchDeviceIds ? batch : single;
  const carrier = Form.useWatch('carrier', form);
  const timeSlot = Form.useWatch('timeSlot', form);
  const notifierIds = Form.useWatch('notifierIds', form) ?? [];
  const escalateAfter = Form.useWatch('escalateAfterSeconds', form);
  const chosenChannels: AlarmChannel[] = [
    ...(Form.useWatch('channels', form) ?? []),
    ...(Form.useWatch('level2Channels', form) ?? []),
    ...(Form.useWatch('level3Channels', form) ?? []),
  ];
  const channelOptions = useChannelOptions(chosenChannels);
  const [periodsError, setPeriodsError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setPeriodsError(null);
    form.resetFields();
    form.setFieldsValue(
      editing
        ? valuesOf(editing)
        : {
            ...defaultValues(sensorId ?? sensors[0]?.id, me ? String(me.id) : undefined),
            ...(batchDeviceIds ? { channel: 1 } : {}),
          },
    );
  }, [open, editing, sensorId, sensors, me, form, batchDeviceIds]);

  const submit = async (values: SettingValues) => {
    const checked = batchDeviceIds
      ? validateBatchSetting(values, batchDeviceIds)
      : validateSetting(values, deviceId, editing?.id);
    if (!checked.ok) {
      const listError = checked.errors.find((e) => e.name.length === 1 && e.name[0] === 'periods');
      setPeriodsError(listError ? t(`alarms.${listError.key}`) : null);
      form.setFields(
        checked.errors
          .filter((e) => e !== listError)
          .map((e) => ({ name: e.name as never, errors: [t(`alarms.${e.key}`)] })),
      );
      return;
    }
    setPeriodsError(null);
    try {
      if (batchDeviceIds) await batch.mutateAsync(checked.data as Parameters<typeof batch.mutateAsync>[0]);
      else await single.mutateAsync(checked.data as Parameters<typeof single.mutateAsync>[0]);
      onSaved();
    } catch {
      // The wrapper already showed the server's message.
    }
  };

  const members = useMemberOptions(open).data;
  // The people in the caller's scope; the caller is always offered (the default notifier), and
  // ids already on the setting but outside the list stay visible rather than as bare numbers.
  const notifierOptions = (members ?? []).map((m) => ({ value: String(m.id), label: m.name }));
  if (me && !notifierOptions.some((o) => o.value === String(me.id)))
    notifierOptions.unshift({ value: String(me.id), label: me.relName || me.account });
  for (const id of notifierIds)
    if (!notifierOptions.some((o) => o.value === id))
      notifierOptions.push({ value: id, label: t('alarms.resolverUser', { id }) });
  const limit = (name: keyof SettingValues, label: string) => (
    <Col xs={24} sm={12}>
      <Form.Item name={name} label={label}>
        <InputNumber style={{ width: '100%' }} data-testid={`setting-${name}`} />
      </Form.Item>
    </Col>
  );

  return (
    <Modal
      open={open}
      title={
        batchDeviceIds
          ? t('alarms.batchSetting.title', { count: batchDeviceIds.length })
          : editing
            ? t('alarms.setting.editTitle')
            : t('alarms.setting.addTitle')
      }
      onCancel={onClose}
      mask={{ closable: false }}
      width={720}
      forceRender
      footer={
        <>
          <Button onClick={onClose}>{t('alarms.setting.cancel')}</Button>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => form.submit()}
            data-testid="setting-submit"
          >
            {t('alarms.setting.save')}
          </Button>
        </>
      }
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="setting-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="carrier" label={t('alarms.setting.carrier')}>
              <Radio.Group
                data-testid="setting-carrier"
                options={[
                  {
                    value: 'sensor',
                    label: batchDeviceIds
                      ? t('alarms.batchSetting.carrierChannel')
                      : t('alarms.setting.carrierSensor'),
                  },
                  {
                    value: 'device',
                    label: batchDeviceIds
                      ? t('alarms.batchSetting.carrierDevice')
                      : t('alarms.setting.carrierDevice'),
                  },
                ]}
              />
            </Form.Item>
          </Col>
          {batchDeviceIds && carrier !== 'device' && (
            <Col xs={24} sm={12}>
              <Form.Item
                name="channel"
                label={t('alarms.batchSetting.channel')}
                rules={[{ required: true, message: t('alarms.rule.channelRequired') }]}
              >
                <InputNumber
                  min={1}
                  max={ALARM_BATCH_MAX_CHANNEL}
                  precision={0}
                  style={{ width: '100%' }}
                  data-testid="setting-channel"
                />
              </Form.Item>
            </Col>
          )}
          {!batchDeviceIds && carrier !== 'device' && (
            <Col xs={24} sm={12}>
              <Form.Item
                name="sensorId"
                label={t('alarms.setting.sensor')}
                rules={[{ required: true, message: t('alarms.rule.required') }]}
              >
                <Select
                  data-testid="setting-sensor"
                  options={sensors.map((s) => ({
                    value: s.id,
                    label: `${s.channel} · ${sensorName(t, s.name)}`,
                  }))}
                />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} sm={12}>
            <Form.Item
              name="alarmType"
              label={t('alarms.setting.alarmType')}
              rules={[{ required: true, message: t('alarms.rule.required') }]}
            >
              <Select
                data-testid="setting-alarmType"
                options={AlarmTypes.map((type) => ({ value: type, label: t(`alarms.type.${type}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="level"
              label={t('alarms.setting.level')}
              rules={[{ required: true, message: t('alarms.rule.level') }]}
            >
              <Radio.Group
                data-testid="setting-level"
                options={[1, 2, 3].map((level) => ({ value: level, label: t('alarms.level', { level }) }))}
              />
            </Form.Item>
          </Col>
          {limit('min', t('alarms.setting.min'))}
          {limit('max', t('alarms.setting.max'))}
          {limit('preMin', t('alarms.setting.preMin'))}
          {limit('preMax', t('alarms.setting.preMax'))}
          <Col xs={24} sm={8}>
            <Form.Item name="delaySeconds" label={t('alarms.setting.delaySeconds')}>
              <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="setting-delay" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="hysteresis" label={t('alarms.setting.hysteresis')}>
              <InputNumber min={0} style={{ width: '100%' }} data-testid="setting-hysteresis" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="repeat"
              label={t('alarms.setting.repeat')}
              rules={[{ required: true, message: t('alarms.rule.repeat') }]}
            >
              <InputNumber precision={0} style={{ width: '100%' }} data-testid="setting-repeat" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="repeatIntervalSeconds" label={t('alarms.setting.repeatIntervalSeconds')}>
              <InputNumber min={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="escalateAfterSeconds"
              label={t('alarms.setting.escalateAfterSeconds')}
              extra={t('alarms.setting.escalateHelp')}
            >
              <InputNumber
                min={0}
                precision={0}
                style={{ width: '100%' }}
                data-testid="setting-escalateAfterSeconds"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="enabled" label={t('alarms.setting.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="timeSlot" label={t('alarms.setting.timeSlot')}>
          <Radio.Group
            data-testid="setting-timeSlot"
            options={[
              { value: 'allDay', label: t('alarms.setting.allDay') },
              { value: 'periods', label: t('alarms.setting.periods') },
            ]}
          />
        </Form.Item>
        {timeSlot === 'periods' && (
          <Form.List name="periods">
            {(fields, { add, remove }, { errors }) => (
              <>
                {fields.map((field, index) => (
                  <Space key={field.key} align="baseline">
                    <Form.Item name={[field.name, 'start']} label={t('alarms.setting.periodStart')}>
                      <Input placeholder="08:00" data-testid={`setting-period-${index}-start`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'end']} label={t('alarms.setting.periodEnd')}>
                      <Input placeholder="18:00" data-testid={`setting-period-${index}-end`} />
                    </Form.Item>
                    <Button onClick={() => remove(field.name)}>{t('alarms.setting.removePeriod')}</Button>
                  </Space>
                ))}
                <Form.ErrorList
                  errors={[...errors, ...(periodsError ? [<span key="p">{periodsError}</span>] : [])]}
                />
                <Form.Item>
                  <Button onClick={() => add({ start: '', end: '' })} data-testid="setting-add-period">
                    {t('alarms.setting.addPeriod')}
                  </Button>
                </Form.Item>
              </>
            )}
          </Form.List>
        )}
        <Form.Item name="weekdays" label={t('alarms.setting.weekdays')}>
          <Checkbox.Group
            data-testid="setting-weekdays"
            options={WEEKDAYS.map((d) => ({ value: d, label: t(`alarms.setting.weekday.${d}`) }))}
          />
        </Form.Item>
        <Form.Item name="channels" label={t('alarms.setting.channels')}>
          <Checkbox.Group data-testid="setting-channels" options={channelOptions} />
        </Form.Item>
        <Form.Item name="notifierIds" label={t('alarms.setting.notifiers')}>
          <Select
            mode="multiple"
            options={notifierOptions}
            optionFilterProp="label"
            data-testid="setting-notifiers"
          />
        </Form.Item>
        {(escalateAfter ?? 0) > 0 &&
          ESCALATION_LEVELS.map((level) => (
            <Row gutter={16} key={level} data-testid={`setting-level-${level}`}>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={`level${level}Notifiers`}
                  label={t('alarms.setting.levelNotifiers', { level })}
                  extra={t('alarms.setting.levelNotifiersHelp')}
                >
                  <Select
                    mode="multiple"
                    options={notifierOptions}
                    optionFilterProp="label"
                    data-testid={`setting-level-${level}-notifiers`}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={`level${level}Channels`}
                  label={t('alarms.setting.levelChannels', { level })}
                >
                  <Checkbox.Group data-testid={`setting-level-${level}-channels`} options={channelOptions} />
                </Form.Item>
              </Col>
            </Row>
          ))}
        {notifierIds.length < NOTIFIER_REMINDER_BELOW && (
          <Alert
            type="warning"
            showIcon
            title={t('alarms.setting.fewNotifiers')}
            data-testid="few-notifiers"
          />
        )}
      </Form>
    </Modal>
  );
}

/**
 * The channels a rule may take: those whose remote alarm service the company has (issue 17 item
 * 5). A channel already chosen whose service is off stays listed, marked, so it can be taken away.
 */
function useChannelOptions(chosen: AlarmChannel[]) {
  const { t } = useTranslation();
  const { data: powers } = usePowers();
  const services = new Set(powers?.serviceAuthTags ?? []);
  return AlarmChannels.filter((c) => services.has(ALARM_CHANNEL_SERVICES[c]) || chosen.includes(c)).map(
    (c) => ({
      value: c,
      label: services.has(ALARM_CHANNEL_SERVICES[c])
        ? t(`alarms.setting.channel.${c}`)
        : t('alarms.setting.channelOff', { channel: t(`alarms.setting.channel.${c}`) }),
    }),
  );
}
