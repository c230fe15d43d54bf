import type { AlarmType } from '@coldchain/contract';
import { ResolveState } from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { runsAlone } from '../../db/one-session';
import { pgArray } from '../../db/pg-array';
import { plannedOnce } from '../../db/planned-once';
import { idToWire } from '../../lib/ids';
import { companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import type { LiveMessage } from '../live/live-hub';
import { usersWhoMaySeeDeviceQuery } from '../org/access';
import { type EngineState, isActive } from './alarm-engine';
import {
  alarmFollowUps,
  alarmNotifications,
  alarmRecords,
  type alarmSettings,
  alarmState,
} from './alarms.table';

/**
 * Writing alarms: the record, its outbox rows and the live message, all decided inside the
 * engine's transaction; the message is pushed by the caller after commit.
 */

export type SettingRow = typeof alarmSettings.$inferSelect;

export interface DeviceInfo {
  id: number;
  companyId: number;
  name: string;
  serial: string;
  groupId: number | null;
}

export interface SensorInfo {
  id: number;
  name: string;
  type: string;
  unit: string;
  rangeMin: number;
  rangeMax: number;
}

export interface PendingPush {
  companyId: number;
  deviceId: number;
  message: LiveMessage;
  /** Who receives it, when already worked out inside the transaction that raised it. */
  userIds?: number[];
}

export { usersWhoMaySeeDevice } from '../org/access';

/** The live channel's alarm message (API.md "Live channel"). Groups do not exist yet: groupName is ''. */
export function liveAlarmMessage(
  device: DeviceInfo,
  sensor: SensorInfo | null,
  alarmType: AlarmType,
  alarmTime: number,
  content: { cn: string; en: string },
  extra: { alarmId: number; level: number; count: number; lateBySeconds?: number | null },
): LiveMessage {
  return {
    type: 'alarm',
    bindContent: {
      alarmTime,
      alarmType,
      groupName: '',
      deviceName: device.name,
      deviceSerial: device.serial,
      deviceId: idToWire(device.id),
      channelName: sensor?.name ?? '',
      objectName: device.name,
      alarmContent: content,
      alarmId: idToWire(extra.alarmId),
      level: extra.level,
      count: extra.count,
      // Extra field (API.md allows them): found in data that arrived late, so not happening now.
      ...(extra.lateBySeconds ? { lateBySeconds: extra.lateBySeconds } : {}),
    },
  };
}

/** Who a notification round reaches: the setting's notifiers, or an escalation level's own. */
export interface Audience {
  notifierIds: number[];
  channels: string[];
}

/** When an alarm's first reminder and escalation fall due (server time); null: none. */
export interface FollowUpSchedule {
  nextRepeatAt: Date | null;
  nextEscalateAt: Date | null;
}

const NO_FOLLOW_UP: FollowUpSchedule = { nextRepeatAt: null, nextEscalateAt: null };
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** JSON columns arrive parsed from one driver and as text from another. */
export const parsed = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

/** The latest and the peak reading of an open value alarm, after readings that did not end it. */
export async function recordLatest(
  tx: Tx,
  companyId: number,
  alarmId: number,
  latest: number,
  peak: number,
): Promise<void> {
  await tx
    .update(alarmRecords)
    .set({ lastValue: latest, peakValue: peak })
    .where(and(eq(alarmRecords.companyId, companyId), eq(alarmRecords.id, alarmId)));
}

export interface NewAlarm {
  setting: SettingRow;
  device: DeviceInfo;
  sensor: SensorInfo | null;
  alarmType: AlarmType;
  level: number;
  ts: number;
  excursionStart: number;
  value: number | null;
  /** The furthest-out reading so far (value alarms); the value when absent. */
  peak?: number | null;
  content: { cn: string; en: string };
  /** Notices (online) are born normalized: nobody has to resolve them. */
  resolveState?: number;
  /** Server time of raising: reminders and escalation are paced from it. */
  raisedAt: Date;
  /** Found in data that arrived late (back-filled readings): the delay is recorded and told. */
  late?: boolean;
}

/** When the first reminder and escalation of a new alarm fall due; none for one nobody must handle. */
export function firstFollowUps(alarm: NewAlarm): FollowUpSchedule {
  const { setting, raisedAt } = alarm;
  if ((alarm.resolveState ?? ResolveState.Pending) !== ResolveState.Pending) return NO_FOLLOW_UP;
  const after = (seconds: number) => new Date(raisedAt.getTime() + seconds * 1000);
  return {
    nextRepeatAt: setting.repeat > 1 ? after(setting.repeatIntervalSeconds) : null,
    nextEscalateAt:
      setting.escalateAfterSeconds > 0 && alarm.level < 3 ? after(setting.escalateAfterSeconds) : null,
  };
}

/**
 * Inserts the record and its first notifications, unless this excursion already has one (same
 * setting, sensor, type and start): then nothing happens and null is returned.
 */
export async function insertAlarm(tx: Tx, alarm: NewAlarm, pushes: PendingPush[]): Promise<number | null> {
  const [id] = await insertAlarms(tx, [alarm], pushes);
  return id ?? null;
}

/** What the insert returns per record written: its id, and who may see its device. */
interface InsertedRecord {
  dedupe_key: string;
  id: number | string;
  recipients: (number | string)[] | string;
}

const dedupeKeyOf = (alarm: NewAlarm) =>
  `${alarm.setting.id}:${alarm.sensor?.id ?? 0}:${alarm.alarmType}:${alarm.excursionStart}`;

/**
 * Inserts one company's new alarms in one statement: the records, each one's first notification
 * round (one outbox row per notifier x channel, for notifiers still in the company) and its
 * reminder schedule, and who may see each device, for the live messages. An alarm whose excursion
 * already has a record (same setting, sensor, type and start) is skipped. Returns each alarm's new
 * id, or null where skipped, in the order given. One statement for a fleet coming back online,
 * not one per device: on the embedded database each statement waits its turn behind every other.
 */
export async function insertAlarms(
  tx: Tx,
  alarms: NewAlarm[],
  pushes: PendingPush[],
): Promise<(number | null)[]> {
  if (alarms.length === 0) return [];
  const companyId = alarms[0]!.device.companyId;
  if (alarms.some((a) => a.device.companyId !== companyId))
    throw new Error('insertAlarms: alarms of one company at a time');
  const keys = alarms.map(dedupeKeyOf);
  // The same excursion twice in one call is one alarm: the first is written, the rest are skipped.
  const firstOfKey = new Map<string, number>();
  keys.forEach((key, i) => {
    if (!firstOfKey.has(key)) firstOfKey.set(key, i);
  });
  const rows = [...firstOfKey.values()].map((i) => {
    const alarm = alarms[i]!;
    const followUps = firstFollowUps(alarm);
    return {
      device_id: alarm.device.id,
      sensor_id: alarm.sensor?.id ?? null,
      setting_id: alarm.setting.id,
      alarm_type: alarm.alarmType,
      level: alarm.level,
      alarm_time: new Date(alarm.ts).toISOString(),
      excursion_start: new Date(alarm.excursionStart).toISOString(),
      dedupe_key: keys[i],
      content: alarm.content,
      last_value: alarm.value,
      peak_value: alarm.peak ?? alarm.value,
      late_by_seconds: lateBySecondsOf(alarm),
      resolve_state: alarm.resolveState ?? ResolveState.Pending,
      notifier_ids: alarm.setting.notifierIds,
      channels: alarm.setting.channels,
      repeat_at: iso(followUps.nextRepeatAt),
      escalate_at: iso(followUps.nextEscalateAt),
    };
  });
  const written = await queryRows<InsertedRecord>(
    tx,
    plannedOnce(sql`
    with src as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(
        device_id bigint, sensor_id bigint, setting_id bigint, alarm_type text, level smallint,
        alarm_time timestamptz, excursion_start timestamptz, dedupe_key text, content jsonb,
        last_value float8, peak_value float8, late_by_seconds integer, resolve_state smallint,
        notifier_ids bigint[], channels text[], repeat_at timestamptz, escalate_at timestamptz)
    ), rec as (
      insert into ${alarmRecords} (company_id, device_id, sensor_id, setting_id, alarm_type, level, alarm_time,
                                   excursion_start, dedupe_key, content, last_value, peak_value, late_by_seconds,
                                   resolve_state)
      select ${companyId}, device_id, sensor_id, setting_id, alarm_type, level, alarm_time, excursion_start,
             dedupe_key, content, last_value, peak_value, late_by_seconds, resolve_state
      from src
      on conflict (dedupe_key) do nothing
      returning id, dedupe_key, device_id, count, level
    ), notified as (
      insert into ${alarmNotifications} (company_id, alarm_id, user_id, channel, sequence, level)
      select ${companyId}, rec.id, m.user_id, ch.channel, rec.count, rec.level
      from rec
      join src on src.dedupe_key = rec.dedupe_key
      join ${companyMembers} m on m.company_id = ${companyId} and m.user_id = any(src.notifier_ids)
      cross join unnest(src.channels) as ch(channel)
      returning 1
    ), scheduled as (
      insert into ${alarmFollowUps} (alarm_id, company_id, next_repeat_at, next_escalate_at)
      select rec.id, ${companyId}, src.repeat_at, src.escalate_at
      from rec join src on src.dedupe_key = rec.dedupe_key
      where src.repeat_at is not null or src.escalate_at is not null
      on conflict (alarm_id) do nothing
      returning 1
    )
    select rec.dedupe_key, rec.id,
           (select coalesce(json_agg(v.user_id), '[]'::json)
            from (${usersWhoMaySeeDeviceQuery(companyId, sql`rec.device_id`)}) v) as recipients
    from rec`),
  );
  const byKey = new Map(written.map((r) => [r.dedupe_key, r]));
  return alarms.map((alarm, i) => {
    const row = firstOfKey.get(keys[i]!) === i ? byKey.get(keys[i]!) : undefined;
    if (!row) return null;
    const id = Number(row.id);
    pushes.push({
      companyId,
      deviceId: alarm.device.id,
      userIds: parsed(row.recipients).map(Number),
      message: liveAlarmMessage(alarm.device, alarm.sensor, alarm.alarmType, alarm.ts, alarm.content, {
        alarmId: id,
        level: alarm.level,
        count: 1,
        lateBySeconds: lateBySecondsOf(alarm),
      }),
    });
    return id;
  });
}

function lateBySecondsOf(alarm: NewAlarm): number | null {
  return alarm.late ? Math.max(0, Math.round((alarm.raisedAt.getTime() - alarm.ts) / 1000)) : null;
}

/** One excursion to end: of a setting on a sensor (0 = device level), at an instant. */
export interface ExcursionEnd {
  settingId: number;
  sensorId: number;
  ts: number;
}

/**
 * Ends the open excursions of settings on sensors (0 = device level), in one statement: the end
 * time is set, and an alarm nobody took in hand becomes "normalized"; one in hand keeps its state
 * for its resolver. Found through the open-alarm index by setting, not among all of the company's.
 */
export async function endExcursions(
  tx: Tx,
  companyId: number,
  ends: ExcursionEnd[],
  alarmTypes: AlarmType[],
) {
  // A second end of the same excursion finds it ended already: the first one given wins.
  const firsts = new Map<string, ExcursionEnd>();
  for (const e of ends) {
    const key = `${e.settingId}:${e.sensorId}`;
    if (!firsts.has(key)) firsts.set(key, e);
  }
  ends = [...firsts.values()];
  if (ends.length === 0) return;
  await tx.execute(
    plannedOnce(sql`
    update ${alarmRecords} r
    set end_time = e.end_time,
        resolve_state = case when r.resolve_state = ${ResolveState.Pending} then ${ResolveState.Normalized}
                             else r.resolve_state end
    from unnest(${pgArray(ends.map((e) => e.settingId))}::bigint[],
                ${pgArray(ends.map((e) => e.sensorId))}::bigint[],
                ${pgArray(ends.map((e) => new Date(e.ts).toISOString()))}::timestamptz[])
         as e(setting_id, sensor_id, end_time)
    where r.setting_id = e.setting_id and coalesce(r.sensor_id, 0) = e.sensor_id
      and r.end_time is null and r.company_id = ${companyId}
      and r.alarm_type = any(${pgArray(alarmTypes)}::text[])`),
  );
}

/**
 * Locks devices before a change to their alarms (a rule edited or deleted, a channel switched
 * off, a shipment ended), in id order. Ingest locks a device when it reports (its last contact)
 * and then, in the same transaction, its alarm states and open alarms; a change that ended the
 * open alarms first and then set the device's state took the same rows in the opposite order,
 * and on PostgreSQL the two deadlocked. Taken first, the device orders them.
 */
export async function lockDevicesForAlarmChange(tx: Tx, companyId: number, deviceIds: number[]) {
  // Nothing to order on the embedded database, which runs one transaction at a time.
  if (deviceIds.length === 0 || runsAlone(tx)) return;
  const ids = [...new Set(deviceIds)].sort((a, b) => a - b);
  await tx.execute(sql`
    select 1 from ${devices} where company_id = ${companyId} and id = any(${pgArray(ids)}::bigint[])
    order by id for no key update`);
}

/**
 * Device state 2 while any of its alarms is active, back to 1 when none: `saveStates` with no
 * state to save, so the rule lives in one statement. Used when settings change outside the engine.
 */
export async function syncDeviceStates(tx: Tx, companyId: number, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  await saveStates(tx, companyId, [], deviceIds);
}

export interface SavedState {
  settingId: number;
  sensorId: number;
  deviceId: number;
  state: EngineState;
}

/**
 * Saves the engine states of one company's evaluation and, in the same statement, sets each
 * device's state from them: 2 while any alarm of it is active, back to 1 when none. Only states 1
 * and 2 are the engine's: abnormal (3, set by ingest for values beyond the measuring range),
 * offline, service and disposed win over an alarm. The sub-statements share one snapshot, so the
 * active flags just written count through `saved`. A device already in its state is left as it is.
 */
export async function saveStates(tx: Tx, companyId: number, states: SavedState[], deviceIds: number[]) {
  const rows = states.map((s) => ({
    setting_id: s.settingId,
    sensor_id: s.sensorId,
    device_id: s.deviceId,
    state: s.state,
    active: isActive(s.state),
  }));
  await tx.execute(
    plannedOnce(sql`
    with saved as (
      insert into ${alarmState} (setting_id, sensor_id, company_id, device_id, state, active)
      select x.setting_id, x.sensor_id, ${companyId}, x.device_id, x.state, x.active
      from json_to_recordset(${JSON.stringify(rows)}::json)
           as x(setting_id bigint, sensor_id bigint, device_id bigint, state jsonb, active boolean)
      on conflict (setting_id, sensor_id) do update
        set state = excluded.state, active = excluded.active, updated_at = now()
      returning setting_id, sensor_id, device_id, active
    ), ${deviceStatesFromAlarms({
      companyId: sql`${companyId}::bigint`,
      // Driven by the ids (the primary key), not by the company's devices in states 1 and 2.
      deviceIds: sql`select unnest(${pgArray(deviceIds)}::bigint[])`,
      activeBySelf: sql`exists (select 1 from saved where saved.device_id = d.id and saved.active)`,
      counted: sql`not exists (select 1 from saved where saved.setting_id = s.setting_id
                                                      and saved.sensor_id = s.sensor_id)`,
    })}
    select count(*) from device_states`),
  );
}

/**
 * The devices' state from their alarm states, as a part of a statement's `with` list named
 * `device_states`: 2 while any alarm state of the device is active, back to 1 when none. Only the
 * engine's states 1 and 2 are changed (abnormal, offline, service and disposed win over an
 * alarm), and only a device whose state changes is written (a row version and its index entries
 * saved); the state is checked on the row updated too, so PostgreSQL checks a row changed
 * meanwhile again. A statement's sub-statements share one snapshot and cannot see each other's
 * changes: `counted` says which stored states `s` still count (not those the statement rewrites
 * or drops), `activeBySelf` which device `d` is active through the statement's own.
 */
export function deviceStatesFromAlarms(parts: {
  companyId: SQL;
  /** A subquery of the devices' ids. */
  deviceIds: SQL;
  activeBySelf?: SQL;
  counted: SQL;
}): SQL {
  const { companyId, deviceIds, activeBySelf = sql`false`, counted } = parts;
  return sql`device_states as (
      update ${devices} target set state = next.state
      from (
        select d.id, case
          when ${activeBySelf}
            or exists (select 1 from ${alarmState} s
                       where s.company_id = ${companyId} and s.device_id = d.id and s.active and ${counted})
          then 2 else 1 end as state
        from ${devices} d
        where d.id in (${deviceIds}) and d.company_id = ${companyId} and d.state in (1, 2)
      ) next
      where target.id = next.id and target.state in (1, 2) and target.state <> next.state
      returning target.id
    )`;
}
