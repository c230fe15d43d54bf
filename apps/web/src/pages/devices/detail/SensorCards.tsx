import type { SensorView } from '@coldchain/contract';
import { Card, Col, Empty, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime, formatValue } from '../format';

/** One card per sensor with its latest reading; the page refetches the device every 30 s. */
export function SensorCards({ sensors }: { sensors: SensorView[] }) {
  const { t } = useTranslation();
  if (sensors.length === 0) return <Empty description={t('devices.detail.noSensors')} />;
  return (
    <Row gutter={[16, 16]}>
      {sensors.map((sensor) => (
        <Col key={sensor.id} xs={24} sm={12} lg={8} xl={6}>
          <Card size="small" data-testid={`sensor-card-${sensor.channel}`}>
            <Statistic
              title={sensor.name}
              value={sensor.value === null ? t('devices.detail.noValue') : formatValue(sensor.value)}
              suffix={sensor.value === null ? undefined : sensor.unit}
              data-testid="sensor-value"
            />
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              {t('devices.detail.range')}: {formatValue(sensor.rangeMin)} ~{' '}
              {formatValue(sensor.rangeMax, sensor.unit)}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ display: 'block' }} data-testid="sensor-updated">
              {t('devices.detail.updated')}: {formatTime(sensor.updateTime)}
            </Typography.Text>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
