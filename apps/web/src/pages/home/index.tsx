import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCompanies, useCompanyId, useHasAuthTag, useUserInfo } from '../../session/queries';
import { AlarmChartCard } from './components/AlarmChartCard';
import { CompanyCard } from './components/CompanyCard';
import { DeviceOverview } from './components/DeviceOverview';
import { EquipmentOverview } from './components/EquipmentOverview';

/** Home: a welcome, the company's figures, alarms per day, the monitor and equipment overviews. */
export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const { data: companies } = useCompanies();
  const companyId = useCompanyId();
  // countGroupByState needs device:view; members with only home:view see the welcome alone.
  const canViewDevices = useHasAuthTag('device:view');
  // The server draws zeros without alarm:view: the chart is then left out.
  const canViewAlarms = useHasAuthTag('alarm:view');
  const company = companies?.find((c) => c.id === companyId) ?? companies?.find((c) => c.current);

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.home')}
      </Typography.Title>
      <Card>
        {/* h3 under the page's h2: headings never skip a level (Lighthouse, heading-order). */}
        <Typography.Title level={3} style={{ marginTop: 0, fontSize: 20 }}>
          {t('home.welcome', { name: user?.relName ?? '' })}
        </Typography.Title>
        <Typography.Paragraph data-testid="home-company">
          {company ? t('home.currentCompany', { company: company.name }) : t('home.noCompany')}
        </Typography.Paragraph>
      </Card>
      {company && <CompanyCard />}
      {company && canViewAlarms && <AlarmChartCard />}
      {canViewDevices && <DeviceOverview />}
      {company && <EquipmentOverview />}
    </Flex>
  );
}
