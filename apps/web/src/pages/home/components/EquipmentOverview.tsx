import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EQUIPMENT_LIST_PATH } from '../../equipment/paths';
import { useCompanyDataInfo } from '../api';

/** Use states of spec section 4, in the order a quality manager reads them. */
const USE_STATES = [
  { state: 1, key: 'inUse' },
  { state: 2, key: 'underService' },
  { state: 4, key: 'standby' },
  { state: 3, key: 'disposed' },
] as const;

/**
 * Equipment per use state, from the company figures (`equipmentStates`, null without
 * `equipment:view`: the card is then left out). Each figure opens the list filtered by it.
 */
export function EquipmentOverview() {
  const { t } = useTranslation();
  const info = useCompanyDataInfo();
  const counts = info.data?.equipmentStates;
  if (!counts) return null;
  return (
    <Card
      title={t('home.equipment.title')}
      extra={
        <Link to={EQUIPMENT_LIST_PATH} data-testid="home-equipment-all">
          {t('home.devices.viewAll')} · {t('home.devices.total', { count: counts.total })}
        </Link>
      }
      data-testid="home-equipment"
    >
      <Row gutter={[16, 16]}>
        {USE_STATES.map(({ state, key }) => (
          <Col key={state} xs={12} sm={6}>
            <Link
              to={`${EQUIPMENT_LIST_PATH}?useState=${state}`}
              data-testid={`home-equipment-state-${state}`}
            >
              <Statistic title={t(`equipment.useState.${state}`)} value={counts[key]} />
            </Link>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
