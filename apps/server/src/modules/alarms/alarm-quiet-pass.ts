import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { plannedOnce } from '../../db/planned-once';
import { devices as deviceTable, sensors as sensorTable } from '../devices/devices.table';
import type { CommittedReading } from '../ingest/write-batch';
import { settingsSignature } from './alarm-context';
import { AlarmRuleCache, type DeviceRules } from './alarm-rule-cache';
import { alarmSettings, alarmState } from './alarms.table';

/** One device's readings judged quiet by its cached rules, and what the pass must check and write. */
export interface QuietDevice {
  deviceId: number;
  companyId: number;
  signature: string;
  /** Each sensor of the readings, whether the rules had it switched on, and the range they judged it by. */
  sensors: { sensorId: number; enabled: boolean; rangeMin: number | null; rangeMax: number | null }[];
  /** Each (value setting, sensor) the readings fall under, with the newest reading's instant. */
  pairs: { settingId: number; sensorId: number; ts: number }[];
}

/**
 * The quiet pass's plan for one device's readings, or null when a reading is out of some limit
 * (the device is then evaluated in full). An in-range reading from a normal state leaves the state
 * normal and only moves its instant on: exactly what the pass writes.
 */
export function planQuiet(
  rules: DeviceRules,
  deviceId: number,
  readings: CommittedReading[],
): QuietDevice | null {
  const newest = new Map<number, number>();
  for (const r of readings) {
    // A device moved to another company is judged by that company's settings: in full.
    if (r.companyId !== rules.companyId) return null;
    if (!AlarmRuleCache.inRange(rules, r.sensorId, r.value)) return null;
    newest.set(r.sensorId, Math.max(newest.get(r.sensorId) ?? r.ts, r.ts));
  }
  const sensors: QuietDevice['sensors'] = [];
  const pairs: QuietDevice['pairs'] = [];
  for (const [sensorId, ts] of newest) {
    const range = rules.sensors.get(sensorId);
    const enabled = range !== undefined;
    sensors.push({ sensorId, enabled, rangeMin: range?.rangeMin ?? null, rangeMax: range?.rangeMax ?? null });
    if (!enabled) continue;
    for (const setting of rules.value) {
      if (setting.sensorId === null || setting.sensorId === sensorId)
        pairs.push({ settingId: setting.id, sensorId, ts });
    }
  }
  return { deviceId, companyId: rules.companyId, signature: rules.signature, sensors, pairs };
}

/**
 * Judges devices whose readings are all in range by their cached rules, in one statement of the
 * batch's transaction, after checking that the rules still hold: the device's enabled settings
 * have the signature they were read with (none created, edited, disabled or deleted since, by any
 * process), each sensor is still switched and ranged as the rules say, every engine state of the
 * device is normal (no excursion pending or alarmed, no offline alarm waiting for the device to
 * return) and the device does not show an alarm (state 2, which the full path would set back).
 * Where all holds, each (setting, sensor) state is written as the engine would leave it: normal,
 * with its newest reading's instant (a state that did not exist yet is created so). Returns the
 * devices where something did not hold: nothing is written for them, and the caller evaluates
 * them in full, as if the cache did not exist.
 */
export async function applyQuietPass(tx: Tx, devices: QuietDevice[]): Promise<Set<number>> {
  if (devices.length === 0) return new Set();
  const checks = devices.flatMap((d) => d.sensors.map((s) => ({ deviceId: d.deviceId, ...s })));
  const pairs = devices.flatMap((d) =>
    d.pairs.map((p) => ({ deviceId: d.deviceId, companyId: d.companyId, ...p })),
  );
  const rows = await queryRows<{ device_id: number | string }>(
    tx,
    plannedOnce(sql`
      with c as (
        select * from unnest(${pgArray(devices.map((d) => d.deviceId))}::bigint[],
                             ${pgArray(devices.map((d) => d.companyId))}::bigint[],
                             ${pgArray(devices.map((d) => d.signature))}::text[]) as c(device_id, company_id, signature)
      ), x as (
        select * from unnest(${pgArray(checks.map((s) => s.sensorId))}::bigint[],
                             ${pgArray(checks.map((s) => s.deviceId))}::bigint[],
                             ${pgArray(checks.map((s) => s.enabled))}::bool[],
                             ${pgArray(checks.map((s) => s.rangeMin ?? 'NULL'))}::float8[],
                             ${pgArray(checks.map((s) => s.rangeMax ?? 'NULL'))}::float8[])
                    as x(sensor_id, device_id, enabled, range_min, range_max)
      ), v as (
        select * from unnest(${pgArray(pairs.map((p) => p.settingId))}::bigint[],
                             ${pgArray(pairs.map((p) => p.sensorId))}::bigint[],
                             ${pgArray(pairs.map((p) => p.deviceId))}::bigint[],
                             ${pgArray(pairs.map((p) => p.companyId))}::bigint[],
                             ${pgArray(pairs.map((p) => p.ts))}::float8[]) as v(setting_id, sensor_id, device_id, company_id, ts)
      ), failed as (
        select c.device_id from c
        where (select ${settingsSignature('s')} from ${alarmSettings} s
               where s.company_id = c.company_id and s.device_id = c.device_id and s.enabled) <> c.signature
           or exists (select 1 from ${alarmState} a
                      where a.company_id = c.company_id and a.device_id = c.device_id
                        and a.state->>'phase' is distinct from 'normal')
           or exists (select 1 from ${deviceTable} d where d.id = c.device_id and d.state = 2)
        union
        -- The ranges came from the database as 4-byte reals: cast back, they compare exactly.
        select x.device_id from x join ${sensorTable} s on s.id = x.sensor_id
        where s.enabled <> x.enabled
           or (x.enabled and (s.range_min <> x.range_min::real or s.range_max <> x.range_max::real))
      ), saved as (
        insert into ${alarmState} as a (setting_id, sensor_id, company_id, device_id, state, active)
        select v.setting_id, v.sensor_id, v.company_id, v.device_id, ${normalState(sql`v.ts`)}, false
        from v where v.device_id not in (select device_id from failed)
        on conflict (setting_id, sensor_id) do update
          set state = ${normalState(sql`greatest((a.state->>'lastTs')::float8, (excluded.state->>'lastTs')::float8)`)},
              updated_at = now()
        returning 1
      )
      select device_id from failed`),
  );
  return new Set(rows.map((r) => Number(r.device_id)));
}

/** The engine's normal state (alarm-engine.ts `initialState`) with its newest instant. */
function normalState(lastTs: ReturnType<typeof sql>) {
  return sql`jsonb_build_object('phase', 'normal', 'severity', null, 'since', null, 'upgradeSince', null, 'lastTs', ${lastTs})`;
}
