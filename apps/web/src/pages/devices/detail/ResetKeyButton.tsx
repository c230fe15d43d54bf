import { KeyOutlined } from '@ant-design/icons';
import { Button, Modal, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceKeyResult } from '../components/DeviceKeyResult';
import { useResetDeviceKey } from '../queries';

/** Resets the device key after a confirmation, then shows the new key once. */
export function ResetKeyButton({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const reset = useResetDeviceKey();
  const [deviceKey, setDeviceKey] = useState<string | null>(null);

  const confirm = async () => {
    try {
      setDeviceKey((await reset.mutateAsync(deviceId)).deviceKey);
    } catch {
      // The wrapper already showed the server's message.
    }
  };

  return (
    <>
      <Popconfirm
        title={t('devices.reset.confirmTitle')}
        description={<div style={{ maxWidth: 320 }}>{t('devices.reset.confirmContent')}</div>}
        okText={t('devices.reset.confirm')}
        cancelText={t('devices.reset.cancel')}
        okButtonProps={{
          danger: true,
          ...({ 'data-testid': 'reset-key-confirm' } as Record<string, string>),
        }}
        onConfirm={confirm}
      >
        <Button icon={<KeyOutlined />} loading={reset.isPending} data-testid="reset-key-open">
          {t('devices.reset.open')}
        </Button>
      </Popconfirm>
      <Modal
        open={deviceKey !== null}
        title={t('devices.reset.title')}
        mask={{ closable: false }}
        onCancel={() => setDeviceKey(null)}
        destroyOnHidden
        footer={
          <Button type="primary" onClick={() => setDeviceKey(null)} data-testid="device-key-close">
            {t('devices.key.close')}
          </Button>
        }
      >
        {deviceKey && <DeviceKeyResult deviceKey={deviceKey} />}
      </Modal>
    </>
  );
}
