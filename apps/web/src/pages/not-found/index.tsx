import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid="not-found" style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Result
        status="404"
        title={
          <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
            {t('common.notFoundTitle')}
          </Typography.Title>
        }
        subTitle={t('common.notFoundDetail')}
        extra={
          <Button type="primary" onClick={() => navigate('/home')}>
            {t('common.backHome')}
          </Button>
        }
      />
    </div>
  );
}
