import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pgArray } from '../../db/pg-array';
import { plannedOnce } from '../../db/planned-once';
import { devices, sensors } from '../devices/devices.table';
import type { EngineState } from './alarm-engine';
import type { OpenAlarm } from './alarm-sensor-evaluation';
import type { DeviceInfo, SensorInfo, SettingRow } from './alarm-writer';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/**
 * Everything the engine needs to judge one company's readings of some devices: their enabled
 * settings, the devices and enabled sensors they name (a disabled channel's readings are stored,
 * never judged), each (setting, sensor)'s saved state (sensor 0: device level, e.g. offline) and
 * the open alarms. Keys of `states` and `open`: `setting:sensor`.
 */
export interface EvaluationContext {
  settings: SettingRow[];
  devices: Map<number, DeviceInfo>;
  sensors: Map<number, SensorInfo>;
  states: Map<string, { deviceId: number; state: EngineState }>;
  open: Map<string, OpenAlarm>;
}

export const stateKey = (settingId: number, sensorId: number) => `${settingId}:${sensorId}`;

// The rows as JSON, built once: the tables do not change while the server runs. The keys are the
// tables' field names, which are the names of DeviceInfo, SensorInfo, OpenAlarm and the saved state.
const SETTING_ROW = jsonRowOf(alarmSettings, 's');
const DEVICE_INFO = jsonRowOf(devices, 'd', ['id', 'companyId', 'name', 'serial', 'groupId']);
const SENSOR_INFO = jsonRowOf(sensors, 'x', ['id', 'name', 'type', 'unit', 'rangeMin', 'rangeMax']);
const SAVED_STATE = jsonRowOf(alarmState, 'a', ['settingId', 'sensorId', 'deviceId', 'state']);
const OPEN_ALARM = jsonRowOf(alarmRecords, 'r', ['id', 'settingId', 'sensorId', 'resolveState']);

type JsonList<T> = T[] | string;
const list = <T>(value: JsonList<T>): T[] => (typeof value === 'string' ? (JSON.parse(value) as T[]) : value);

/**
 * Reads the context in one statement (five subqueries, one round trip): on the embedded database
 * every statement waits its turn on the one connection, behind ingest's batches, so an alarm's
 * path is as short as the number of statements on it.
 */
export async function loadEvaluationContext(
  tx: Tx,
  companyId: number,
  deviceIds: number[],
): Promise<EvaluationContext> {
  const ids = sql`${pgArray([...new Set(deviceIds)])}::bigint[]`;
  const [row] = await queryRows<{
    settings: JsonList<Record<string, unknown>>;
    devices: JsonList<DeviceInfo>;
    sensors: JsonList<SensorInfo>;
    states: JsonList<{ settingId: number; sensorId: number; deviceId: number; state: EngineState }>;
    open: JsonList<OpenAlarm & { settingId: number; sensorId: number | null }>;
  }>(
    tx,
    plannedOnce(sql`select
      (select coalesce(json_agg(${SETTING_ROW} order by s.id), '[]'::json)
       from ${alarmSettings} s where s.company_id = ${companyId} and s.device_id = any(${ids}) and s.enabled) as settings,
      (select coalesce(json_agg(${DEVICE_INFO}), '[]'::json)
       from ${devices} d where d.company_id = ${companyId} and d.id = any(${ids})) as devices,
      (select coalesce(json_agg(${SENSOR_INFO}), '[]'::json)
       from ${sensors} x where x.company_id = ${companyId} and x.device_id = any(${ids}) and x.enabled) as sensors,
      (select coalesce(json_agg(${SAVED_STATE}), '[]'::json)
       from ${alarmState} a where a.company_id = ${companyId} and a.device_id = any(${ids})) as states,
      (select coalesce(json_agg(${OPEN_ALARM} order by r.id), '[]'::json)
       from ${alarmRecords} r where r.company_id = ${companyId} and r.device_id = any(${ids}) and r.end_time is null) as open`),
  );
  const context: EvaluationContext = {
    settings: list(row!.settings).map((raw) => decodeJsonRow(alarmSettings, raw)),
    devices: new Map(list(row!.devices).map((d) => [d.id, d])),
    sensors: new Map(list(row!.sensors).map((s) => [s.id, s])),
    states: new Map(
      list(row!.states).map((s) => [
        stateKey(s.settingId, s.sensorId),
        { deviceId: s.deviceId, state: s.state },
      ]),
    ),
    // Ordered by id, so the newest open record of a (setting, sensor) wins: the alarm that repeats and escalates.
    open: new Map(
      list(row!.open).map((r) => [
        stateKey(r.settingId, r.sensorId ?? 0),
        { id: r.id, resolveState: r.resolveState },
      ]),
    ),
  };
  return context;
}
