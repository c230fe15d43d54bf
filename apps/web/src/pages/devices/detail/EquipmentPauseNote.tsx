import type { SensorEquipmentView } from '@coldchain/contract';
import { Alert, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHasAuthTag } from '../../../session/queries';
import { equipmentDetailUrl } from '../../equipment/paths';
import { formatTime } from '../format';

/** "Alarms paused: <equipment> under service" (null when its alarms are not paused). */
export function pauseTitle(t: TFunction, equipment: SensorEquipmentView): string | null {
  const name = `${equipment.name} (${equipment.serial})`;
  switch (equipment.alarmsPaused) {
    case 'underService':
      return t('devices.equipmentPause.underService', { name });
    case 'disposed':
      return t('devices.equipmentPause.disposed', { name });
    case 'maintenance':
      return t('devices.equipmentPause.maintenance', { name, until: formatTime(equipment.pausedUntil) });
    default:
      return null;
  }
}

/** The equipment's name, linking to its detail page for callers who may open it. */
export function EquipmentName({ equipment }: { equipment: SensorEquipmentView }) {
  const canOpen = useHasAuthTag('equipment:view');
  const label = `${equipment.name} (${equipment.serial})`;
  return canOpen ? <Link to={equipmentDetailUrl(equipment.id)}>{label}</Link> : <span>{label}</span>;
}

/**
 * On a sensor card: the equipment the sensor measures and, while that equipment is under service,
 * disposed or in a maintenance window, that the sensor records but raises no alarm (the alarm
 * engine leaves it out: equipment-suppression.ts on the server).
 */
export function SensorEquipmentNote({ equipment }: { equipment: SensorEquipmentView | null | undefined }) {
  const { t } = useTranslation();
  if (!equipment) return null;
  const title = pauseTitle(t, equipment);
  return (
    <>
      <Typography.Text type="secondary" style={{ display: 'block' }} data-testid="sensor-equipment">
        {t('devices.equipmentPause.measures')}: <EquipmentName equipment={equipment} />
      </Typography.Text>
      {title && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 8 }}
          title={title}
          description={t('devices.equipmentPause.recording')}
          data-testid="sensor-alarms-paused"
        />
      )}
    </>
  );
}
