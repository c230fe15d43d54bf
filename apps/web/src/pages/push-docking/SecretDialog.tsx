import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The one time an address's secret is shown (the key of X-Signature). It closes only through its
 * button (no mask click, no Escape), so the secret is not lost by a slip.
 */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('pushDock.secret.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="push-secret-done">
          {t('pushDock.secret.done')}
        </Button>
      }
      data-testid="push-secret-dialog"
    >
      <Alert type="warning" showIcon title={t('pushDock.secret.warning')} style={{ marginBottom: 16 }} />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('pushDock.secret.label')}>
          <Typography.Text
            code
            copyable={{ tooltips: [t('pushDock.common.copy'), t('pushDock.common.copied')] }}
            data-testid="push-secret"
            style={{ wordBreak: 'break-all' }}
          >
            {secret}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('pushDock.secret.howTo')}
      </Typography.Paragraph>
    </Modal>
  );
}
