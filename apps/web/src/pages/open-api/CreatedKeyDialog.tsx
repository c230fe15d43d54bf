import type { CreatedOpenApiKey } from '@coldchain/contract';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The one time the secret is shown: app key and app secret with copy buttons and a warning. It
 * closes only through its button (no mask click, no Escape), so the secret is not lost by a slip.
 */
export function CreatedKeyDialog({ created, onClose }: { created: CreatedOpenApiKey; onClose: () => void }) {
  const { t } = useTranslation();
  const copyable = { tooltips: [t('openApi.common.copy'), t('openApi.common.copied')] };
  return (
    <Modal
      open
      title={t('openApi.created.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="key-created-done">
          {t('openApi.created.done')}
        </Button>
      }
      data-testid="key-created-dialog"
    >
      <Alert
        type="warning"
        showIcon
        title={t('openApi.created.warning')}
        style={{ marginBottom: 16 }}
        data-testid="key-created-warning"
      />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('openApi.keys.appKey')}>
          <Typography.Text
            code
            copyable={copyable}
            data-testid="key-created-app-key"
            style={{ wordBreak: 'break-all' }}
          >
            {created.appKey}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.created.appSecret')}>
          <Typography.Text
            code
            copyable={copyable}
            data-testid="key-created-app-secret"
            style={{ wordBreak: 'break-all' }}
          >
            {created.appSecret}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
