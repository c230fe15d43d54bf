import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddDevice } from '../queries';
import { DeviceKeyResult } from './DeviceKeyResult';

interface Values {
  serial: string;
  name: string;
}

/** Limits of AddDeviceRequest in the contract, repeated here only to explain them in the form. */
const SERIAL_MAX = 40;
const NAME_MAX = 100;

/**
 * Adds a monitor by serial and name. On success the modal turns into the one-time key view;
 * closing it forgets the key. Server refusals (unknown or used serial) are toasted by the
 * request wrapper and leave the form open for a correction.
 */
export function AddDeviceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [deviceKey, setDeviceKey] = useState<string | null>(null);
  const add = useAddDevice();

  const close = () => {
    setDeviceKey(null);
    form.resetFields();
    add.reset();
    onClose();
  };

  const submit = async (values: Values) => {
    try {
      const result = await add.mutateAsync({ serial: values.serial.trim(), name: values.name.trim() });
      setDeviceKey(result.deviceKey);
    } catch {
      // The wrapper already showed the server's message.
    }
  };

  return (
    <Modal
      open={open}
      title={t('devices.add.title')}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        deviceKey ? (
          <Button type="primary" onClick={close} data-testid="device-key-close">
            {t('devices.key.close')}
          </Button>
        ) : (
          <>
            <Button onClick={close}>{t('devices.add.cancel')}</Button>
            <Button
              type="primary"
              loading={add.isPending}
              onClick={() => form.submit()}
              data-testid="add-device-submit"
            >
              {t('devices.add.submit')}
            </Button>
          </>
        )
      }
    >
      {deviceKey ? (
        <DeviceKeyResult deviceKey={deviceKey} />
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
          <Form.Item
            name="serial"
            label={t('devices.add.serial')}
            rules={[
              { required: true, whitespace: true, message: t('devices.add.serialRequired') },
              { max: SERIAL_MAX, message: t('devices.add.tooLong', { max: SERIAL_MAX }) },
            ]}
          >
            <Input
              placeholder={t('devices.add.serialPlaceholder')}
              data-testid="add-device-serial"
              autoFocus
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('devices.add.name')}
            rules={[
              { required: true, whitespace: true, message: t('devices.add.nameRequired') },
              { max: NAME_MAX, message: t('devices.add.tooLong', { max: NAME_MAX }) },
            ]}
          >
            <Input placeholder={t('devices.add.namePlaceholder')} data-testid="add-device-name" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
