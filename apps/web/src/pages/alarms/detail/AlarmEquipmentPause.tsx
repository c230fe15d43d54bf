import type { AlarmDetailView } from '@coldchain/contract';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { EquipmentName, pauseTitle } from '../../devices/detail/EquipmentPauseNote';

/** Whether the alarm's sensor is paused by its equipment while the alarm is still open. */
export const pausedWhileOpen = (alarm: AlarmDetailView) =>
  Boolean(alarm.equipment?.alarmsPaused) && alarm.endTime === null;

/**
 * Says that the alarm's sensor measures equipment under service, disposed or in maintenance: the
 * engine then records its readings without judging them, so an alarm still open does not end by
 * itself and only a person's resolution closes it (a QA reviewer must not wait for it to clear).
 */
export function AlarmEquipmentPause({ alarm }: { alarm: AlarmDetailView }) {
  const { t } = useTranslation();
  const equipment = alarm.equipment;
  const title = equipment ? pauseTitle(t, equipment) : null;
  if (!equipment || !title) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={title}
      description={
        <>
          <div>
            {t(pausedWhileOpen(alarm) ? 'alarms.equipmentPause.open' : 'alarms.equipmentPause.ended')}
          </div>
          <EquipmentName equipment={equipment} />
        </>
      }
      data-testid="alarm-equipment-paused"
    />
  );
}
