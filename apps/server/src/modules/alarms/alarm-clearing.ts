import { type AlarmClearing, type AlarmType, ResolveState, ValueAlarmTypes } from '@coldchain/contract';
import type { sensors } from '../devices/devices.table';
import { clearBand } from './alarm-engine';
import { fromReal, valueRuleOf } from './alarm-rules';
import type { alarmRecords, alarmSettings } from './alarms.table';

type RecordRow = typeof alarmRecords.$inferSelect;
type SettingRow = typeof alarmSettings.$inferSelect;
type SensorRow = typeof sensors.$inferSelect;

/** Types nothing ends but a person: no event or reading ever sets their end time. */
const RESOLVE_ONLY: AlarmType[] = ['lowBattery', 'call'];

/**
 * What ends an open alarm, for the detail ("why is it still open"). Null once it has ended, and
 * where nothing is pending: an `online` notice is born normalized, and a resolve-only alarm is
 * over once someone resolved it.
 *
 * A value alarm whose setting is gone or disabled cannot be open: editing or deleting a setting
 * ends its open alarms (alarm-settings.service.ts), so that case answers null rather than a kind.
 * `setting` and `sensor` are the alarm's own (read with it by the detail's statement), null when gone.
 */
export function clearingOf(
  record: RecordRow,
  setting: SettingRow | null,
  sensor: SensorRow | null,
): AlarmClearing | null {
  if (record.endTime !== null) return null;
  const type = record.alarmType as AlarmType;
  if (type === 'offline' || type === 'powerOff') return { kind: type };
  if (RESOLVE_ONLY.includes(type)) {
    const settled =
      record.resolveState === ResolveState.Resolved || record.resolveState === ResolveState.Expired;
    return settled ? null : { kind: 'resolveOnly' };
  }
  if (!(ValueAlarmTypes as readonly AlarmType[]).includes(type)) return null;
  return valueClearing(record, setting, sensor);
}

function valueClearing(
  record: RecordRow,
  setting: SettingRow | null,
  sensor: SensorRow | null,
): AlarmClearing | null {
  if (record.settingId === null || record.sensorId === null) return null;
  if (!setting?.enabled || !sensor) return null;
  // The same rule the engine judges this sensor's readings with, so the band is the one that clears.
  const rule = valueRuleOf(setting, sensor);
  const { low, high } = clearBand(rule);
  return {
    kind: 'value',
    low,
    high,
    hysteresis: rule.hysteresis,
    unit: sensor.unit,
    latestValue: sensor.value === null ? null : fromReal(sensor.value),
    latestTs: sensor.updateTime?.getTime() ?? null,
  };
}
