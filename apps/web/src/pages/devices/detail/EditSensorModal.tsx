import type { SensorView } from '@coldchain/contract';
import { App, Form, Input, Modal, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditSensor } from '../queries';

interface SensorValues {
  name: string;
  remark: string;
  enabled: boolean;
}

/** Edits one channel: its name, remarks and whether it is in use. */
export function EditSensorModal({ sensor, onClose }: { sensor: SensorView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SensorValues>();
  const save = useEditSensor();
  const enabled = Form.useWatch('enabled', form);

  useEffect(() => {
    if (sensor) form.setFieldsValue({ name: sensor.name, remark: sensor.remark, enabled: sensor.enabled });
  }, [sensor, form]);

  const submit = async (values: SensorValues) => {
    if (!sensor) return;
    try {
      await save.mutateAsync({ id: sensor.id, ...values, remark: values.remark ?? '' });
      void message.success(t('devices.sensor.saved'));
      onClose();
    } catch {
      // The request wrapper has shown the server's message; the dialog stays open for a correction.
    }
  };

  return (
    <Modal
      open={!!sensor}
      title={t('devices.sensor.editTitle', { channel: sensor?.channel ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('devices.sensor.save')}
      cancelText={t('devices.sensor.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'edit-sensor-submit' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="edit-sensor-form">
        <Form.Item
          name="name"
          label={t('devices.sensor.name')}
          rules={[{ required: true, whitespace: true, message: t('devices.sensor.nameRequired') }]}
        >
          <Input maxLength={50} data-testid="edit-sensor-name" />
        </Form.Item>
        <Form.Item name="remark" label={t('devices.sensor.remark')}>
          <Input.TextArea
            maxLength={255}
            showCount
            autoSize={{ minRows: 2 }}
            data-testid="edit-sensor-remark"
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('devices.sensor.enabled')} valuePropName="checked">
          <Switch data-testid="edit-sensor-enabled" />
        </Form.Item>
        {enabled === false ? (
          <Typography.Text type="warning" data-testid="edit-sensor-disabled-hint">
            {t('devices.sensor.disabledHint')}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
