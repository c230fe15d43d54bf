import { type AlarmClearing, type AlarmType, ResolveState, ValueAlarmTypes } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sensors } from '../devices/devices.table';
import { clearBand } from './alarm-engine';
import { fromReal, valueRuleOf } from './alarm-rules';
import { type alarmRecords, alarmSettings } from './alarms.table';

type RecordRow = typeof alarmRecords.$inferSelect;

/** Types nothing ends but a person: no event or reading ever sets their end time. */
const RESOLVE_ONLY: AlarmType[] = ['lowBattery', 'call'];

/**
 * What ends an open alarm, for the detail ("why is it still open"). Null once it has ended, and
 * where nothing is pending: an `online` notice is born normalized, and a resolve-only alarm is
 * over once someone resolved it.
 *
 * A value alarm whose setting is gone or disabled cannot be open: editing or deleting a setting
 * ends its open alarms (alarm-settings.service.ts), so that case answers null rather than a kind.
 */
export async function clearingOf(db: Queryable, record: RecordRow): Promise<AlarmClearing | null> {
  if (record.endTime !== null) return null;
  const type = record.alarmType as AlarmType;
  if (type === 'offline' || type === 'powerOff') return { kind: type };
  if (RESOLVE_ONLY.includes(type)) {
    const settled =
      record.resolveState === ResolveState.Resolved || record.resolveState === ResolveState.Expired;
    return settled ? null : { kind: 'resolveOnly' };
  }
  if (!(ValueAlarmTypes as readonly AlarmType[]).includes(type)) return null;
  return valueClearing(db, record);
}

async function valueClearing(db: Queryable, record: RecordRow): Promise<AlarmClearing | null> {
  if (record.settingId === null || record.sensorId === null) return null;
  const [setting] = await db
    .select()
    .from(alarmSettings)
    .where(and(eq(alarmSettings.companyId, record.companyId), eq(alarmSettings.id, record.settingId)))
    .limit(1);
  const [sensor] = await db
    .select()
    .from(sensors)
    .where(and(eq(sensors.companyId, record.companyId), eq(sensors.id, record.sensorId)))
    .limit(1);
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
