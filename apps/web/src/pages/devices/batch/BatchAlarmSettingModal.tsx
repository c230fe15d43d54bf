import type { SensorView } from '@coldchain/contract';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingModal } from '../../alarms/setting/SettingModal';

/** Stable, so that the form is not reset on every render. */
const NO_SENSORS: SensorView[] = [];

/**
 * Batch alarm setting (spec section 2 dialogs): the alarm-setting form of the alarm pages, saving
 * one setting on each selected monitor (or on the same channel of each) through
 * `/api/deviceAlarmRule/batchSaveAlarmSetting`, all or nothing.
 */
export function BatchAlarmSettingModal({
  deviceIds,
  open,
  onClose,
}: {
  deviceIds: string[];
  open: boolean;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <SettingModal
      open={open}
      deviceId=""
      sensors={NO_SENSORS}
      editing={null}
      batchDeviceIds={deviceIds}
      onClose={() => onClose(false)}
      onSaved={() => {
        void message.success(t('alarms.batchSetting.done', { count: deviceIds.length }));
        onClose(true);
      }}
    />
  );
}
