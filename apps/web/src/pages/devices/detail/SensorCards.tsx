import type { SensorView } from '@coldchain/contract';
import { Button, Card, Col, Empty, Flex, Row, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sensorName } from '../../../components/labels';
import { formatTime, formatValue } from '../format';
import { ChannelStateTag } from './ChannelStateTag';
import { EditSensorModal } from './EditSensorModal';
import { SensorEquipmentNote } from './EquipmentPauseNote';

/**
 * One card per sensor with its latest reading, channel state and remarks; the page refetches the
 * device every 30 s. `editable`: the caller may change this device, so each card offers Edit.
 */
export function SensorCards({ sensors, editable = false }: { sensors: SensorView[]; editable?: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<SensorView | null>(null);
  if (sensors.length === 0) return <Empty description={t('devices.detail.noSensors')} />;
  return (
    <>
      <Row gutter={[16, 16]}>
        {sensors.map((sensor) => (
          <Col key={sensor.id} xs={24} sm={12} lg={8} xl={6}>
            <Card
              size="small"
              data-testid={`sensor-card-${sensor.channel}`}
              title={
                <Flex gap="small" align="center" wrap>
                  <span>{t('devices.sensor.channel', { channel: sensor.channel })}</span>
                  <ChannelStateTag state={sensor.state} updateTime={sensor.updateTime} />
                </Flex>
              }
              extra={
                editable ? (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setEditing(sensor)}
                    data-testid={`edit-sensor-open-${sensor.channel}`}
                  >
                    {t('devices.sensor.edit')}
                  </Button>
                ) : null
              }
            >
              <Statistic
                title={sensorName(t, sensor.name)}
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
              {sensor.remark ? (
                <Typography.Paragraph
                  type="secondary"
                  style={{ marginBottom: 0 }}
                  ellipsis={{ rows: 2, tooltip: sensor.remark }}
                  data-testid="sensor-remark"
                >
                  {t('devices.sensor.remark')}: {sensor.remark}
                </Typography.Paragraph>
              ) : null}
              <SensorEquipmentNote equipment={sensor.equipment} />
            </Card>
          </Col>
        ))}
      </Row>
      <EditSensorModal sensor={editing} onClose={() => setEditing(null)} />
    </>
  );
}
