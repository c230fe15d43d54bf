import {
  type DeviceView,
  type ParameterRequestView,
  ParameterState,
  type PushParametersRequest,
} from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Form, InputNumber, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/request';
import { formatTime } from '../format';

/** Parameter read and push down (API.md "down, parameters"; spec section 4 states). */
const PATHS = {
  state: '/api/device/parameterState',
  read: '/api/device/readParameters',
  push: '/api/device/pushParameters',
} as const;

const PENDING: number[] = [ParameterState.Reading, ParameterState.Sending];
const STATE_COLORS: Record<number, string> = {
  [ParameterState.Reading]: 'processing',
  [ParameterState.Sending]: 'processing',
  [ParameterState.ReadOk]: 'success',
  [ParameterState.Sent]: 'success',
  [ParameterState.ReadFailed]: 'error',
  [ParameterState.SendFailed]: 'error',
};
/** While the device has not answered, the state is asked again at this pace. */
const POLL_MS = 2_000;

const PARAM_KEYS = ['recordInterval', 'uploadInterval', 'alarmVerifyInterval', 'offlineJudgement'] as const;

export function ParametersPanel({ device, canEdit }: { device: DeviceView; canEdit: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [pushing, setPushing] = useState(false);
  const [form] = Form.useForm<Omit<PushParametersRequest, 'id'>>();
  const key = ['devices', 'parameters', device.id];
  const state = useQuery({
    queryKey: key,
    queryFn: () => request<ParameterRequestView | null>(PATHS.state, { id: device.id }),
    refetchInterval: (query) =>
      query.state.data && PENDING.includes(query.state.data.state) ? POLL_MS : false,
  });
  const after = (view: ParameterRequestView) => {
    client.setQueryData(key, view);
    // A push the device accepted changes the detail's intervals.
    void client.invalidateQueries({ queryKey: ['devices', 'detail', device.id] });
  };
  const read = useMutation({
    mutationFn: () => request<ParameterRequestView>(PATHS.read, { id: device.id }),
    onSuccess: after,
  });
  const push = useMutation({
    mutationFn: (body: PushParametersRequest) => request<ParameterRequestView>(PATHS.push, body),
    onSuccess: after,
  });
  const current = state.data;
  const busy = !!current && PENDING.includes(current.state);

  const submitPush = async () => {
    let values: Omit<PushParametersRequest, 'id'>;
    try {
      values = await form.validateFields();
    } catch {
      return; // The form shows what is wrong.
    }
    try {
      await push.mutateAsync({ id: device.id, ...values });
      setPushing(false);
    } catch {
      // The request wrapper showed the server's message.
    }
  };

  return (
    <Card
      title={t('billing.params.title')}
      data-testid="parameters-panel"
      extra={
        canEdit && (
          <Flex gap="small">
            <Button
              onClick={() => read.mutate()}
              loading={read.isPending}
              disabled={busy}
              data-testid="params-read"
            >
              {t('billing.params.read')}
            </Button>
            <Button
              type="primary"
              onClick={() => setPushing(true)}
              disabled={busy}
              data-testid="params-push-open"
            >
              {t('billing.params.push')}
            </Button>
          </Flex>
        )
      }
    >
      {current ? (
        <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label={t('billing.params.state')}>
            <Tag color={STATE_COLORS[current.state]} data-testid="params-state">
              {t(`billing.params.states.${current.state}`)}
            </Tag>
            {current.error && (
              <span data-testid="params-error">{t(`billing.params.errors.${current.error}`)}</span>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('billing.params.time')}>
            {formatTime(current.createTime)}
          </Descriptions.Item>
          {current.params &&
            PARAM_KEYS.filter((k) => current.params?.[k] !== undefined).map((k) => (
              <Descriptions.Item key={k} label={t(`billing.params.fields.${k}`)}>
                <span data-testid={`params-value-${k}`}>{current.params?.[k]}</span>
              </Descriptions.Item>
            ))}
        </Descriptions>
      ) : (
        <span data-testid="params-none">{t('billing.params.none')}</span>
      )}
      <Modal
        open={pushing}
        title={t('billing.params.pushTitle')}
        onCancel={() => setPushing(false)}
        onOk={submitPush}
        okText={t('billing.params.send')}
        okButtonProps={{ loading: push.isPending, ...({ 'data-testid': 'params-push-send' } as object) }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            recordInterval: device.recordInterval,
            uploadInterval: device.uploadInterval,
            alarmVerifyInterval: device.alarmVerifyInterval,
            offlineJudgement: device.offlineJudgement,
          }}
        >
          {PARAM_KEYS.map((k) => (
            <Form.Item
              key={k}
              name={k}
              label={t(`billing.params.fields.${k}`)}
              dependencies={k === 'alarmVerifyInterval' ? ['uploadInterval'] : []}
              rules={
                k === 'alarmVerifyInterval'
                  ? [
                      { required: true, message: t('billing.params.required') },
                      ({ getFieldValue }) => ({
                        validator: (_, value) =>
                          value === undefined || value === null || value <= getFieldValue('uploadInterval')
                            ? Promise.resolve()
                            : Promise.reject(new Error(t('billing.params.verifyRule'))),
                      }),
                    ]
                  : [{ required: true, message: t('billing.params.required') }]
              }
            >
              <InputNumber
                min={k === 'offlineJudgement' ? 1 : 10}
                max={k === 'offlineJudgement' ? 100 : 86_400}
                precision={0}
                style={{ width: 200 }}
                data-testid={`params-input-${k}`}
              />
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </Card>
  );
}
