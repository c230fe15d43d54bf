import { ApiOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { refusalOf } from './api';

/**
 * What a list shows instead of its table when its call failed: the server's refusal (the
 * company lacks the open-API service, or the permission) as the page's empty state, or a
 * transport fault with a retry.
 */
export function ListProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const refusal = refusalOf(error);
  if (refusal) {
    return <Result icon={<ApiOutlined />} subTitle={refusal} data-testid="open-api-refused" />;
  }
  return (
    <Alert
      type="error"
      showIcon
      title={t('openApi.common.loadFailed')}
      action={
        <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
          {t('openApi.common.retry')}
        </Button>
      }
      data-testid="open-api-error"
    />
  );
}
