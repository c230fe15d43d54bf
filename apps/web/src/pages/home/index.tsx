import { Alert, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCompanies, useCompanyId, useUserInfo } from '../../session/queries';

/** Home: a real welcome from the session; statistics arrive with a later issue. */
export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const { data: companies } = useCompanies();
  const companyId = useCompanyId();
  const company = companies?.find((c) => c.id === companyId) ?? companies?.find((c) => c.current);

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.home')}
      </Typography.Title>
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('home.welcome', { name: user?.relName ?? '' })}
        </Typography.Title>
        <Typography.Paragraph data-testid="home-company">
          {company ? t('home.currentCompany', { company: company.name }) : t('home.noCompany')}
        </Typography.Paragraph>
        <Alert type="info" showIcon title={t('home.statisticsLater')} />
      </Card>
    </div>
  );
}
