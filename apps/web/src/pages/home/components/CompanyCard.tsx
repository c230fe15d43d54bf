import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { READABLE_TEXT } from '../../../components/text-colors';
import { useHasAuthTag } from '../../../session/queries';
import { useCompanyDataInfo } from '../api';

const FIGURES = [
  { key: 'departmentCount', label: 'home.company.departments' },
  { key: 'memberCount', label: 'home.company.members' },
  { key: 'deviceCount', label: 'home.company.devices', tag: 'device:view' },
  { key: 'alarmsToday', label: 'home.company.alarmsToday', color: READABLE_TEXT.orange, tag: 'alarm:view' },
  { key: 'pendingAlarms', label: 'home.company.pendingAlarms', color: READABLE_TEXT.red, tag: 'alarm:view' },
] as const;

/**
 * The company in scope and its figures (`/api/userOrganize/companyDataInfo`). The server answers
 * zero for devices and alarms the caller may not view; those figures are left out rather than
 * shown as a misleading zero.
 */
export function CompanyCard() {
  const { t } = useTranslation();
  const info = useCompanyDataInfo();
  const canViewDevices = useHasAuthTag('device:view');
  const canViewAlarms = useHasAuthTag('alarm:view');
  const allowed = { 'device:view': canViewDevices, 'alarm:view': canViewAlarms };
  const figures = FIGURES.filter((f) => !('tag' in f) || allowed[f.tag]);
  return (
    <Card
      title={info.data?.companyName ?? t('home.company.title')}
      loading={info.isPending}
      data-testid="home-company-card"
    >
      <Row gutter={[16, 16]}>
        {figures.map((figure) => (
          <Col key={figure.key} xs={12} sm={8} lg={4} data-testid={`home-company-${figure.key}`}>
            <Statistic
              title={t(figure.label)}
              value={info.data?.[figure.key] ?? 0}
              styles={{ content: { color: 'color' in figure ? figure.color : undefined } }}
            />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
