import { Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Stand-in for a screen that later issues deliver. It says so plainly instead of showing
 * invented data.
 */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={
        <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
          {t(titleKey)}
        </Typography.Title>
      }
      subTitle={
        <>
          <div>{t('common.comingSoon')}</div>
          <div>{t('common.comingSoonDetail')}</div>
        </>
      }
    />
  );
}
