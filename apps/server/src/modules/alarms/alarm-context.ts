import { type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pgArray } from '../../db/pg-array';
import { plannedOnce } from '../../db/planned-once';
import { devices, sensors } from '../devices/devices.table';
import { sensorSilencedByEquipment } from '../equipment/equipment-suppression';
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
  /** The device of each sensor in `sensors`. */
  sensorDevices: Map<number, number>;
  states: Map<string, { deviceId: number; state: EngineState }>;
  open: Map<string, OpenAlarm>;
  /** Per device, its enabled settings as `settingsSignature` writes them ('-': none). */
  signatures: Map<number, string>;
}

/**
 * A device's enabled settings as one text: the md5 of each setting's id and row version (`xmin`,
 * the transaction that wrote the row), in id order. The quiet pass (alarm-quiet-pass.ts) compares
 * it with the text the context was loaded with: any setting created, written (even with the same
 * values, even twice within one instant), disabled or deleted since shows, because every insert or
 * update gives the row the id of a transaction that committed after the rules were read. The
 * version is kept through freezing (PostgreSQL reports the raw xmin); a rewrite or restore that
 * changed it would only cost one full evaluation. It replaced a text of the row's fields
 * (limits, type, sensor, `updated_at` to the microsecond), whose number formatting was half of the
 * quiet pass's time (docs/performance.md). Both sides are computed by the database; hex digits
 * only, so it travels in an array parameter (db/pg-array.ts). '-' for a device without enabled
 * settings.
 */
export function settingsSignature(alias: string): SQL {
  const s = sql.raw(alias);
  return sql`coalesce(md5(string_agg(${s}.id::text || '.' || ${s}.xmin::text, '_' order by ${s}.id)), '-')`;
}

export const stateKey = (settingId: number, sensorId: number) => `${settingId}:${sensorId}`;

// The rows as JSON, built once: the tables do not change while the server runs. The keys are the
// tables' field names, which are the names of DeviceInfo, SensorInfo, OpenAlarm and the saved state.
const SETTING_ROW = jsonRowOf(alarmSettings, 's');
const DEVICE_INFO = jsonRowOf(devices, 'd', ['id', 'companyId', 'name', 'serial', 'groupId']);
const SENSOR_INFO = jsonRowOf(sensors, 'x', [
  'id',
  'deviceId',
  'name',
  'type',
  'unit',
  'rangeMin',
  'rangeMax',
]);
const SAVED_STATE = jsonRowOf(alarmState, 'a', ['settingId', 'sensorId', 'deviceId', 'state']);
const OPEN_ALARM = jsonRowOf(alarmRecords, 'r', ['id', 'settingId', 'sensorId', 'resolveState']);

type JsonList<T> = T[] | string;
const list = <T>(value: JsonList<T>): T[] => (typeof value === 'string' ? (JSON.parse(value) as T[]) : value);

/**
 * Reads the context in one statement (six subqueries, one round trip): on the embedded database
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
    sensors: JsonList<SensorInfo & { deviceId: number }>;
    states: JsonList<{ settingId: number; sensorId: number; deviceId: number; state: EngineState }>;
    open: JsonList<OpenAlarm & { settingId: number; sensorId: number | null }>;
    signatures: Record<string, string> | string;
  }>(
    tx,
    // Every part is driven by the devices' ids, through indexes that lead with the device (or the
    // company and the device): its cost follows the devices judged, never the company's fleet.
    plannedOnce(sql`select
      (select coalesce(json_agg(${SETTING_ROW} order by s.id), '[]'::json)
       from ${alarmSettings} s where s.company_id = ${companyId} and s.device_id = any(${ids}) and s.enabled) as settings,
      (select coalesce(json_agg(${DEVICE_INFO}), '[]'::json)
       from unnest(${ids}) i(id) join ${devices} d on d.id = i.id where d.company_id = ${companyId}) as devices,
      (select coalesce(json_agg(${SENSOR_INFO}), '[]'::json)
       from unnest(${ids}) i(id) join ${sensors} x on x.device_id = i.id
       where x.company_id = ${companyId} and x.enabled and not ${sensorSilencedByEquipment(sql`x.id`)}) as sensors,
      (select coalesce(json_agg(${SAVED_STATE}), '[]'::json)
       from ${alarmState} a where a.company_id = ${companyId} and a.device_id = any(${ids})) as states,
      (select coalesce(json_agg(${OPEN_ALARM} order by r.id), '[]'::json)
       from ${alarmRecords} r where r.company_id = ${companyId} and r.device_id = any(${ids}) and r.end_time is null) as open,
      (select coalesce(json_object_agg(g.device_id, g.signature), '{}'::json)
       from (select s.device_id, ${settingsSignature('s')} as signature from ${alarmSettings} s
             where s.company_id = ${companyId} and s.device_id = any(${ids}) and s.enabled
             group by s.device_id) g) as signatures`),
  );
  const sensorRows = list(row!.sensors);
  const context: EvaluationContext = {
    settings: list(row!.settings).map((raw) => decodeJsonRow(alarmSettings, raw)),
    devices: new Map(list(row!.devices).map((d) => [d.id, d])),
    sensors: new Map(sensorRows.map((s) => [s.id, s])),
    sensorDevices: new Map(sensorRows.map((s) => [s.id, s.deviceId])),
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
    signatures: new Map(
      Object.entries(
        typeof row!.signatures === 'string'
          ? (JSON.parse(row!.signatures) as Record<string, string>)
          : row!.signatures,
      ).map(([id, signature]) => [Number(id), signature]),
    ),
  };
  return context;
}
