import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { READABLE_TEXT } from '../../../components/text-colors';
import { DEVICE_STATES, STATE_COLORS } from '../../devices/format';
import { useStateCounts } from '../../devices/queries';

const LIST_PATH = '/deviceManagement/monitoringDevice';

/** Monitor counts per state (spec section 4; the home page calls state 5 'maintenance'). */
export function DeviceOverview() {
  const { t } = useTranslation();
  const counts = useStateCounts();
  const total = counts.data ? Object.values(counts.data).reduce((sum, n) => sum + n, 0) : 0;
  return (
    <Card
      title={t('home.devices.title')}
      loading={counts.isPending}
      extra={
        <Link to={LIST_PATH} data-testid="home-devices-all">
          {t('home.devices.viewAll')} · {t('home.devices.total', { count: total })}
        </Link>
      }
      data-testid="home-devices"
    >
      <Row gutter={[16, 16]}>
        {DEVICE_STATES.map((state) => (
          <Col key={state} xs={12} sm={8} lg={4}>
            <Link to={`${LIST_PATH}?state=${state}`} data-testid={`home-devices-state-${state}`}>
              <Statistic
                title={state === 5 ? t('home.devices.maintenance') : t(`devices.state.${state}`)}
                value={counts.data?.[String(state)] ?? 0}
                styles={{ content: { color: READABLE_TEXT[STATE_COLORS[state] ?? ''] } }}
              />
            </Link>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
