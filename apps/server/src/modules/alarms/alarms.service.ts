import type {
  AlarmDetailView,
  AlarmRecordView,
  AlarmType,
  Page,
  PageAlarmsRequest,
  ResolveAlarmRequest,
} from '@coldchain/contract';
import { ResolveState } from '@coldchain/contract';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { builtSqlOnce, sqlWithPlaceholders } from '../../db/built-once';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { runsAlone } from '../../db/one-session';
import { epochParam, pageOf, whenGiven } from '../../db/page-query';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, auditedChangeSql, auditedValues } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { sensorEquipmentFrom, sensorEquipmentJson } from '../devices/sensor-equipment';
import { deviceIdsWhere, wholeCompanyOf } from '../org/access';
import { requireSignature, type Signature } from '../signature/signature.service';
import { users } from '../users/users.table';
import { clearingOf } from './alarm-clearing';
import { alarmRecords, alarmSettings } from './alarms.table';

type RecordRow = typeof alarmRecords.$inferSelect;

interface Joined {
  record: RecordRow;
  deviceSerial: string;
  deviceName: string;
  channelName: string | null;
  /** The resolver's display name, so the list and detail need no member lookup. */
  resolverName: string | null;
  /** Who ended it by disabling, deleting or editing its rule (absent where not joined, as in the export). */
  endedByName?: string | null;
}

export function presentAlarm({
  record: r,
  deviceSerial,
  deviceName,
  channelName,
  resolverName,
  endedByName,
}: Joined): AlarmRecordView {
  return {
    id: idToWire(r.id),
    deviceId: idToWire(r.deviceId),
    deviceSerial,
    deviceName,
    sensorId: r.sensorId === null ? null : idToWire(r.sensorId),
    channelName,
    settingId: r.settingId === null ? null : idToWire(r.settingId),
    alarmType: r.alarmType as AlarmType,
    level: r.level,
    alarmTime: r.alarmTime.getTime(),
    content: r.content,
    count: r.count,
    lastValue: r.lastValue,
    peakValue: r.peakValue,
    lateBySeconds: r.lateBySeconds,
    resolveState: r.resolveState,
    resolverId: r.resolverId === null ? null : idToWire(r.resolverId),
    resolverName: r.resolverId === null ? null : resolverName,
    resolveTime: r.resolveTime?.getTime() ?? null,
    resolveType: r.resolveType,
    cause: r.cause,
    action: r.action,
    endTime: r.endTime?.getTime() ?? null,
    endReason: r.endReason,
    endedById: r.endedBy === null ? null : idToWire(r.endedBy),
    endedByName: r.endedBy === null ? null : (endedByName ?? null),
  };
}

const ALARM_ROW = jsonRowOf(alarmRecords, 'alarm_records');
const SETTING_ROW = jsonRowOf(alarmSettings, 'st');
const SENSOR_ROW = jsonRowOf(sensors, 'sn');

/**
 * An alarm as one JSON value for the list and detail: its columns and what the view names from
 * other tables (device, channel, resolver, the person whose rule change ended it), read for the
 * rows answered only. `withClearing` adds the setting and sensor the detail's `clearing` needs.
 */
function alarmRow(withClearing: boolean): SQL {
  return sql`json_build_object(
    'record', ${ALARM_ROW},
    'device', (select json_build_object('serial', d.serial, 'name', d.name) from ${devices} d
               where d.id = ${alarmRecords.deviceId}),
    'channelName', (select s.name from ${sensors} s where s.id = ${alarmRecords.sensorId}),
    'resolverName', (select u.name from ${users} u where u.id = ${alarmRecords.resolverId}),
    'endedByName', (select u.name from ${users} u where u.id = ${alarmRecords.endedBy})
    ${
      withClearing
        ? sql`, 'setting', (select ${SETTING_ROW} from ${alarmSettings} st
               where st.company_id = ${alarmRecords.companyId} and st.id = ${alarmRecords.settingId}),
             'sensor', (select ${SENSOR_ROW} from ${sensors} sn
               where sn.company_id = ${alarmRecords.companyId} and sn.id = ${alarmRecords.sensorId})`
        : sql``
    })`;
}

interface AlarmJson {
  record: Record<string, unknown>;
  device: { serial: string; name: string };
  channelName: string | null;
  resolverName: string | null;
  endedByName: string | null;
  setting?: Record<string, unknown> | null;
  sensor?: Record<string, unknown> | null;
}

function joinedOf(raw: AlarmJson): Joined {
  return {
    record: decodeJsonRow(alarmRecords, raw.record),
    deviceSerial: raw.device.serial,
    deviceName: raw.device.name,
    channelName: raw.channelName,
    resolverName: raw.resolverName,
    endedByName: raw.endedByName,
  };
}

/** The alarms of the company in scope that belong to devices the caller may see. */
function visibleAlarms(companyId: number | Placeholder, scope: SQL): SQL {
  return and(
    eq(alarmRecords.companyId, companyId),
    sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(scope)}`,
  )!;
}

/**
 * `/api/alarm/pageAlarms`: newest first; the time range is [startTime, endTime) on the alarm time.
 * One statement (db/page-query.ts).
 */
export async function pageAlarms(
  db: Queryable,
  companyId: number,
  /** Devices the caller may see (org/access.ts). */
  scope: SQL,
  query: PageAlarmsRequest,
): Promise<Page<AlarmRecordView>> {
  const where = and(
    visibleAlarms(companyId, scope),
    whenGiven(query.resolveState, 'smallint', (v) => sql`${alarmRecords.resolveState} = ${v}`),
    whenGiven(query.alarmType, 'text', (v) => sql`${alarmRecords.alarmType} = ${v}`),
    whenGiven(
      query.deviceId === undefined ? null : (idFromWire(query.deviceId) ?? -1),
      'bigint',
      (v) => sql`${alarmRecords.deviceId} = ${v}`,
    ),
    whenGiven(query.startTime, 'float8', (v) => sql`${alarmRecords.alarmTime} >= ${epochParam(v)}`),
    whenGiven(query.endTime, 'float8', (v) => sql`${alarmRecords.alarmTime} < ${epochParam(v)}`),
  );
  return pageOf(
    db,
    {
      row: alarmRow(false),
      from: alarmRecords,
      where,
      orderBy: sql`${alarmRecords.alarmTime} desc, ${alarmRecords.id} desc`,
    },
    query,
    (raw: AlarmJson) => presentAlarm(joinedOf(raw)),
  );
}

/** `visibleAlarms` for a caller who sees the whole company, its company a placeholder. */
const alarmsOfWholeCompany = visibleAlarms(
  sql.placeholder('companyId'),
  eq(devices.companyId, sql.placeholder('companyId')),
);

/** `/api/alarm/alarmDetail`: the alarm as the list shows it, with what ends it and its sensor's equipment. */
export async function getAlarmDetail(
  db: Queryable,
  companyId: number,
  scope: SQL,
  wireId: string,
): Promise<AlarmDetailView> {
  const id = idFromWire(wireId);
  if (!id) throw new AppError('ALARM_NOT_FOUND');
  const [found] = await queryRows<{
    row: AlarmJson | string;
    equipment: Parameters<typeof sensorEquipmentFrom>[0];
  }>(
    db,
    plannedOnce(sql`select ${alarmRow(true)} as row,
        ${sensorEquipmentJson(sql`s.id = ${alarmRecords.sensorId}`)} as equipment
      from ${alarmRecords}
      where ${visibleAlarms(companyId, scope)} and ${alarmRecords.id} = ${id}::bigint limit 1`),
  );
  if (!found) throw new AppError('ALARM_NOT_FOUND');
  const raw: AlarmJson = typeof found.row === 'string' ? JSON.parse(found.row) : found.row;
  const alarm = joinedOf(raw);
  const setting = raw.setting ? decodeJsonRow(alarmSettings, raw.setting) : null;
  const sensor = raw.sensor ? decodeJsonRow(sensors, raw.sensor) : null;
  // Whether the sensor's equipment pauses its alarms: then this one is no longer judged either.
  const sensorId = alarm.record.sensorId;
  const measured = sensorEquipmentFrom(found.equipment);
  return {
    ...presentAlarm(alarm),
    clearing: clearingOf(alarm.record, setting, sensor),
    equipment: (sensorId && measured.get(sensorId)) || null,
  };
}

/** The states a person may resolve an alarm from: not resolved already, not expired. */
const RESOLVABLE = [ResolveState.Pending, ResolveState.InProgress, ResolveState.Normalized];

/**
 * A resolution as one statement (docs/performance.md, "Audited writes"): the alarm `visible`
 * admits, read with its state (`old`); its update, if that state is resolvable; the audit entry,
 * its `before` that state; the answer, the alarm as the list shows it (the resolver's name read
 * from the users, the caller), and beside it the state read, which says why nothing was resolved
 * (none: not there, or not the caller's). Its values are placeholders (the alarm, the resolution,
 * the entry), given at each call.
 *
 * The alarm is read only while the company asks no signature of a resolution, unless the
 * statement is `signed` (the caller's signature was checked first): the answer's `sign_check`
 * then says the statement changed nothing because one is asked (`resolveAlarm`).
 *
 * On PostgreSQL (`locking`) the alarm is locked as it is read: a statement that waited for
 * another resolution, or for the engine's write of the alarm, reads the alarm as that writer
 * left it, so a second resolution sees "resolved" and the entry's `before` is the state the
 * alarm was really resolved from. The embedded database runs one statement at a time, and the
 * lock would be a write for nothing there.
 */
function resolutionSql(visible: SQL, locking: boolean): SQL {
  const p = sql.placeholder;
  const lock = locking ? sql` for no key update of ${alarmRecords}` : sql``;
  const signCheck = sql`coalesce((select c.sign_check from ${companies} c where c.id = ${p('companyId')}::bigint), false)`;
  const reads = sql`old as (
      select ${alarmRecords.id} as id, ${alarmRecords.resolveState} as state from ${alarmRecords}
      where ${visible} and ${alarmRecords.id} = ${p('id')}::bigint
        and (${p('signed')}::boolean or not ${signCheck})${lock}
    )`;
  const change = sql`update ${alarmRecords} set resolve_state = ${ResolveState.Resolved}::smallint,
      resolver_id = ${p('resolverId')}::bigint, resolve_time = ${p('resolveTime')}::timestamptz,
      resolve_type = ${p('resolveType')}::text, cause = ${p('cause')}::text, action = ${p('action')}::text
    from old where ${alarmRecords.id} = old.id and old.state in (${sql.raw(RESOLVABLE.join(', '))})
    returning ${alarmRecords}.*, old.state as old_state`;
  const answer = sql`select (select ${alarmRow(false)} from changed as ${alarmRecords}) as row,
      (select state from old) as state, ${signCheck} as sign_check`;
  const before = sql`(select '{"resolveState":' || old_state || '}' from changed)`;
  return plannedOnce(auditedChangeSql({ reads, change, answer, before }));
}

/** A resolution by a caller who sees the whole company, its SQL built once per driver. */
const resolutionOfWholeCompany = builtSqlOnce((q) => resolutionSql(alarmsOfWholeCompany, !runsAlone(q)));

/**
 * Closes an alarm with the resolver's account of it. Clearing the condition is the engine's job;
 * resolving is a person's decision, attributed to the caller. Once taken in hand the engine stops
 * reminding and escalating. A normalized alarm (the value came back by itself) can still be
 * resolved, since it happened; a resolved or expired one cannot.
 */
export async function resolveAlarm(db: Db, actor: Actor, scope: SQL, input: ResolveAlarmRequest) {
  const { companyId } = actor;
  const id = idFromWire(input.id);
  if (!id) throw new AppError('ALARM_NOT_FOUND');
  const resolution = {
    resolverId: actor.userId,
    resolveTime: new Date().toISOString(),
    resolveType: input.resolveType,
    cause: input.cause,
    action: input.action,
  };
  // The entry's `before` (the state it was resolved from) is read by the statement itself.
  const entryOf = (signature: Signature | null) =>
    auditedValues({
      actor,
      action: 'alarm.resolve',
      targetType: 'alarm',
      targetId: id,
      after: {
        resolveState: ResolveState.Resolved,
        resolveType: input.resolveType,
        cause: input.cause,
        action: input.action,
        // Who signed, when and what the signature means (21 CFR 11.50); never the password.
        ...(signature ? { signature } : {}),
      },
    });
  // A department member's scope varies with the department: their statement is built at each call.
  // Either is one statement, a transaction of its own on either database (auditedChangeSql).
  const statement =
    wholeCompanyOf(scope) === companyId
      ? resolutionOfWholeCompany(db)
      : sqlWithPlaceholders(db, resolutionSql(visibleAlarms(companyId, scope), !runsAlone(db)));
  const resolve = async (signature: Signature | null, signed: boolean) => {
    const [answer] = await statement.rows<{
      row: AlarmJson | string | null;
      state: number | null;
      sign_check: boolean;
    }>({ companyId, id, signed, ...resolution, ...entryOf(signature) });
    return answer;
  };
  // Most companies ask no signature: the statement resolves while the company's audit signature is
  // off, and says when it is on, having read nothing of the alarm. Then the signature is checked
  // before anything is told (a wrong password must not tell whether the alarm exists), and the
  // resolution is made signed.
  let found = await resolve(null, false);
  if (found?.sign_check) {
    const { signature } = await requireSignature(
      db,
      { userId: actor.userId!, companyId, ip: actor.ip },
      input.signPassword,
      'alarmResolution',
    );
    found = await resolve(signature, true);
  }
  if (!found?.row) {
    // Not resolved: the state the alarm was in says why (none: not there, or not the caller's).
    if (found?.state === ResolveState.Expired) throw new AppError('ALARM_EXPIRED');
    // Resolved already (on PostgreSQL the state read is the newest, locked: one resolved first shows here).
    if (found?.state != null) throw new AppError('ALARM_ALREADY_RESOLVED');
    throw new AppError('ALARM_NOT_FOUND');
  }
  const raw: AlarmJson = typeof found.row === 'string' ? JSON.parse(found.row) : found.row;
  return presentAlarm(joinedOf(raw));
}
