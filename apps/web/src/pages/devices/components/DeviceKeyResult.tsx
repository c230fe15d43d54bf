import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The device key is shown exactly once (after adding or resetting): the server keeps only its
 * hash, so the warning must be unmissable and copying must say when it failed (spec section 8).
 */
export function DeviceKeyResult({ deviceKey }: { deviceKey: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(deviceKey);
      message.success(t('devices.key.copied'));
    } catch {
      message.error(t('devices.key.copyFailed'));
    }
  };

  return (
    <Flex vertical gap="middle">
      <Alert type="warning" showIcon title={t('devices.key.warning')} data-testid="device-key-warning" />
      <div>
        <Typography.Text type="secondary">{t('devices.key.label')}</Typography.Text>
        <Flex gap="small" align="center" wrap>
          <Typography.Text
            code
            strong
            data-testid="device-key"
            style={{ fontSize: 16, wordBreak: 'break-all' }}
          >
            {deviceKey}
          </Typography.Text>
          <Button icon={<CopyOutlined />} onClick={copy} data-testid="device-key-copy">
            {t('devices.key.copy')}
          </Button>
        </Flex>
      </div>
    </Flex>
  );
}
