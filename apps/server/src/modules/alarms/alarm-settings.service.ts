import type {
  AlarmChannel,
  AlarmEndReason,
  AlarmSettingListRequest,
  AlarmSettingView,
  AlarmType,
  BatchSaveAlarmSettingRequest,
  Page,
  SaveAlarmSettingRequest,
} from '@coldchain/contract';
import { and, asc, count, eq, getTableColumns, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { builtOnce, builtSqlOnce, placeholdersFor, UNNAMED } from '../../db/built-once';
import type { Db, Tx } from '../../db/client';
import { runsAlone } from '../../db/one-session';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import {
  type Actor,
  auditedChangeSql,
  auditedValues,
  inAuditedOrder,
  recordAudit,
} from '../audit/audit.service';
import { companyMembers } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { selectedDevices } from '../devices/devices-batch.service';
import { deviceIdsWhere, wholeCompanyOf } from '../org/access';
import { endOpenAlarms } from './alarm-end';
import { everyNotifier, presentEscalation, storeEscalation } from './alarm-escalation';
import { devicesLockFor, lockDevicesForAlarmChange, type SettingRow, syncDeviceStates } from './alarm-writer';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';
import { assertRemoteAlarmAllowed, assertTiersAllowRemoteAlarm } from './remote-alarm';

/** Escalation levels are optional: callers inside the server (demo seed) may leave them out. */
type WithOptionalEscalation<T extends { escalation: unknown }> = Omit<T, 'escalation'> &
  Partial<Pick<T, 'escalation'>>;
export type SaveAlarmSettingInput = WithOptionalEscalation<SaveAlarmSettingRequest>;

/** The rule fields both saves share (contract `alarmRuleFields`). */
type AlarmRule = Omit<SaveAlarmSettingInput, 'id' | 'carrier' | 'targetId'>;

/** Every channel a rule may use, its escalation levels' included (remote-alarm check). */
/** Every channel a rule names, its escalation levels' included. */
export const channelsOf = (rule: AlarmRule) => [
  ...new Set([...rule.channels, ...(rule.escalation ?? []).flatMap((e) => e.channels)]),
];

export function presentSetting(s: SettingRow): AlarmSettingView {
  return {
    id: idToWire(s.id),
    carrier: s.carrier,
    targetId: idToWire(s.targetId),
    deviceId: idToWire(s.deviceId),
    sensorId: s.sensorId === null ? null : idToWire(s.sensorId),
    level: s.level,
    alarmType: s.alarmType as AlarmType,
    min: s.min,
    max: s.max,
    preMin: s.preMin,
    preMax: s.preMax,
    delaySeconds: s.delaySeconds,
    hysteresis: s.hysteresis,
    repeat: s.repeat,
    repeatIntervalSeconds: s.repeatIntervalSeconds,
    escalateAfterSeconds: s.escalateAfterSeconds,
    channels: s.channels as AlarmChannel[],
    timeSlot: s.allDay ? 'allDay' : 'periods',
    periods: s.periods,
    weekdays: s.weekdays,
    timeZone: s.timeZone,
    notifierIds: s.notifierIds.map(idToWire),
    escalation: presentEscalation(s.escalation),
    enabled: s.enabled,
  };
}

/**
 * The device (and sensor) a setting is on, with the device's serial and version for the remote
 * alarm check; a target of another company does not exist.
 */
async function resolveTarget(db: Db, scope: SQL, input: SaveAlarmSettingInput) {
  const id = idFromWire(input.targetId);
  const device = { id: devices.id, serial: devices.serial, version: devices.version };
  if (input.carrier === 'device') {
    const [found] = id
      ? await db
          .select(device)
          .from(devices)
          .where(and(scope, eq(devices.id, id)))
          .limit(1)
      : [];
    if (!found) throw new AppError('DEVICE_NOT_FOUND');
    return { deviceId: found.id, sensorId: null, device: found };
  }
  const [sensor] = id
    ? await db
        .select({ id: sensors.id, device })
        .from(sensors)
        .innerJoin(devices, eq(devices.id, sensors.deviceId))
        .where(and(eq(sensors.id, id), scope))
        .limit(1)
    : [];
  if (!sensor) throw new AppError('SENSOR_NOT_FOUND');
  return { deviceId: sensor.device.id, sensorId: sensor.id, device: sensor.device };
}

/** `findSetting` for a caller who sees the whole company, its SQL built once (db/built-once.ts). */
const settingOfWholeCompany = builtOnce((q) =>
  q
    .select()
    .from(alarmSettings)
    .where(
      and(
        eq(alarmSettings.id, sql.placeholder('id')),
        sql`${alarmSettings.deviceId} IN ${deviceIdsWhere(eq(devices.companyId, sql.placeholder('companyId')))}`,
      ),
    )
    .limit(1)
    .for('no key update')
    .prepare(UNNAMED),
);

async function findSetting(db: Db | Tx, scope: SQL, wireId: string): Promise<SettingRow> {
  const id = idFromWire(wireId);
  const companyId = wholeCompanyOf(scope);
  const [row] = !id
    ? []
    : companyId !== undefined
      ? await settingOfWholeCompany(db).execute({ id, companyId })
      : await db
          .select()
          .from(alarmSettings)
          .where(and(eq(alarmSettings.id, id), sql`${alarmSettings.deviceId} IN ${deviceIdsWhere(scope)}`))
          .limit(1)
          // Not `for update`: that also blocks the key-share lock an alarm raised on this rule
          // takes (its foreign key), so ingest, holding the device, waited for an edit that in
          // turn waited for the device: a deadlock on PostgreSQL. Edits still queue on each other.
          .for('no key update');
  if (!row) throw new AppError('ALARM_SETTING_NOT_FOUND');
  return row;
}

/** A setting, and whether an alarm of it is open (an edit must end it: the long way). */
const SETTING_TO_EDIT = {
  ...getTableColumns(alarmSettings),
  hasOpenAlarm: sql<boolean>`exists (select 1 from ${alarmRecords} r
    where r.company_id = ${alarmSettings.companyId} and r.setting_id = ${alarmSettings.id} and r.end_time is null)`,
};

/** `findSettingToEdit` for a caller who sees the whole company, its SQL built once. */
const settingToEditOfWholeCompany = builtOnce((q) => {
  const query = q
    .select(SETTING_TO_EDIT)
    .from(alarmSettings)
    .where(
      and(
        eq(alarmSettings.id, sql.placeholder('id')),
        sql`${alarmSettings.deviceId} IN ${deviceIdsWhere(eq(devices.companyId, sql.placeholder('companyId')))}`,
      ),
    )
    .limit(1);
  // Built once per driver, so once per kind of database: the lock only where sessions run side
  // by side (on the embedded database it orders nothing, and it writes the row to lock it).
  return (runsAlone(q) ? query : query.for('no key update')).prepare(UNNAMED);
});

/** `settingToEditOfWholeCompany` for a scope narrower than the company, built at each call. */
function settingToEditInScope(tx: Tx, scope: SQL, id: number) {
  const query = tx
    .select(SETTING_TO_EDIT)
    .from(alarmSettings)
    .where(and(eq(alarmSettings.id, id), sql`${alarmSettings.deviceId} IN ${deviceIdsWhere(scope)}`))
    .limit(1);
  return runsAlone(tx) ? query : query.for('no key update');
}

/**
 * `findSetting`, and whether an alarm of the setting is open: an edit with none is one statement
 * (`quickEditStatement`). Locked as `findSetting` locks on PostgreSQL (the rule first, then its
 * devices, then the chain, the order of every rule change); the embedded database runs one
 * transaction at a time, and the lock would only write the row.
 */
async function findSettingToEdit(tx: Tx, scope: SQL, wireId: string) {
  const id = idFromWire(wireId);
  const companyId = wholeCompanyOf(scope);
  const [found] = !id
    ? []
    : companyId !== undefined
      ? await settingToEditOfWholeCompany(tx).execute({ id, companyId })
      : await settingToEditInScope(tx, scope, id);
  if (!found) throw new AppError('ALARM_SETTING_NOT_FOUND');
  const { hasOpenAlarm, ...row } = found;
  return { row: row as SettingRow, hasOpenAlarm };
}

/** Why an edit ends the open alarms: switching the rule off, or changing it. */
const editReason = (existing: SettingRow, enabled: boolean): AlarmEndReason =>
  existing.enabled && !enabled ? 'ruleDisabled' : 'ruleEdited';

/** The stored columns of a rule; its notifiers must be members of the company. */
async function ruleValues(db: Db, companyId: number, input: AlarmRule) {
  const notifierIds = input.notifierIds.map((id) => idFromWire(id)!);
  const escalation = storeEscalation(input.escalation ?? []);
  const everyone = everyNotifier(notifierIds, escalation);
  if (everyone.length > 0) {
    const members = await db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.userId, everyone)));
    if (members.length !== everyone.length) throw new AppError('NOTIFIER_NOT_MEMBER');
  }
  const allDay = (input.timeSlot ?? (input.periods.length > 0 ? 'periods' : 'allDay')) === 'allDay';
  return {
    companyId,
    level: input.level,
    alarmType: input.alarmType,
    min: input.min ?? null,
    max: input.max ?? null,
    preMin: input.preMin ?? null,
    preMax: input.preMax ?? null,
    delaySeconds: input.delaySeconds,
    hysteresis: input.hysteresis,
    repeat: input.repeat,
    repeatIntervalSeconds: input.repeatIntervalSeconds,
    escalateAfterSeconds: input.escalateAfterSeconds,
    allDay,
    periods: allDay ? [] : input.periods,
    weekdays: [...input.weekdays].sort((a, b) => a - b),
    timeZone: input.timeZone,
    channels: input.channels,
    notifierIds,
    escalation,
    enabled: input.enabled,
  };
}

/** What a save writes into a rule's row: its rule and where it is. */
type StoredRule = Awaited<ReturnType<typeof ruleValues>> &
  Pick<SettingRow, 'carrier' | 'targetId' | 'deviceId' | 'sensorId' | 'updatedAt'>;

/** Every column a save writes; the type fails to check when a stored field is added or dropped. */
const STORED_RULE_COLUMNS: Record<keyof StoredRule, true> = {
  companyId: true,
  level: true,
  alarmType: true,
  min: true,
  max: true,
  preMin: true,
  preMax: true,
  delaySeconds: true,
  hysteresis: true,
  repeat: true,
  repeatIntervalSeconds: true,
  escalateAfterSeconds: true,
  allDay: true,
  periods: true,
  weekdays: true,
  timeZone: true,
  channels: true,
  notifierIds: true,
  escalation: true,
  enabled: true,
  carrier: true,
  targetId: true,
  deviceId: true,
  sensorId: true,
  updatedAt: true,
};

/** A rule's update, its SQL built once (db/built-once.ts): each column from the placeholder of its name. */
const updateRule = builtOnce((q) =>
  q
    .update(alarmSettings)
    .set(placeholdersFor(STORED_RULE_COLUMNS))
    .where(
      and(
        eq(alarmSettings.companyId, sql.placeholder('whereCompanyId')),
        eq(alarmSettings.id, sql.placeholder('whereId')),
      ),
    )
    .returning()
    .prepare(UNNAMED),
);

/**
 * An edit of a rule with no alarm open as one statement (docs/performance.md, "Audited writes"):
 * the rule's update, if no alarm of it is open (the caller found none; checked again, as ingest
 * may have raised one since on PostgreSQL); its engine states dropped, so judging starts afresh; its devices' state (the old and the
 * new device) set from the states left, 2 while any is active, as `syncDeviceStates` does; and its
 * audit entry. It answers the rule's id, or none when it changed nothing: then an alarm was
 * raised meanwhile, and the caller saves the rule the long way. The sub-statements share one snapshot, so the dropped states are left out of
 * the devices' by their setting.
 */
const quickEditStatement = builtSqlOnce((q) => {
  const companyId = sql`${sql.placeholder('whereCompanyId')}::bigint`;
  const settingId = sql`${sql.placeholder('whereId')}::bigint`;
  const change = q
    .update(alarmSettings)
    .set(placeholdersFor(STORED_RULE_COLUMNS))
    .where(
      and(
        sql`${alarmSettings.companyId} = ${companyId}`,
        sql`${alarmSettings.id} = ${settingId}`,
        sql`not exists (select 1 from ${alarmRecords} r
          where r.company_id = ${companyId} and r.setting_id = ${settingId} and r.end_time is null)`,
      ),
    )
    .returning({ id: alarmSettings.id })
    .getSQL();
  // A device whose state stays is not written (a row version and its index entries saved).
  const newState = sql`case
        when exists (select 1 from ${alarmState} s where s.company_id = ${companyId} and s.device_id = d.id
                       and s.active and s.setting_id <> ${settingId})
        then 2 else 1 end`;
  const alongside = sql`cleared as (
      delete from ${alarmState} where company_id = ${companyId} and setting_id in (select id from changed)
    ), device_states as (
      update ${devices} d set state = ${newState}
      where d.id in (${sql.placeholder('oldDeviceId')}::bigint, ${sql.placeholder('newDeviceId')}::bigint)
        and d.company_id = ${companyId} and d.state in (1, 2) and d.state <> ${newState}
        and exists (select 1 from changed)
    )`;
  return plannedOnce(
    auditedChangeSql({ change, alongside, answer: sql`select (select id from changed) as id` }),
  );
});

/** Saves an edit by `quickEditStatement` in `tx`, where `existing` was found; false if it must go the long way. */
async function quickEdit(
  tx: Tx,
  actor: Actor,
  existing: SettingRow,
  values: Omit<StoredRule, 'updatedAt'>,
): Promise<boolean> {
  const updatedAt = new Date();
  const audit = auditedValues({
    actor,
    action: 'alarmSetting.edit',
    targetType: 'alarmSetting',
    targetId: existing.id,
    before: presentSetting(existing),
    after: presentSetting({ ...existing, ...values, updatedAt }),
  });
  // The rule is locked already (findSettingToEdit); then its devices, then the chain.
  const target = {
    companyId: actor.companyId,
    rows: [devicesLockFor(actor.companyId, [existing.deviceId, values.deviceId])],
  };
  const [saved] = await inAuditedOrder(tx, target, () =>
    quickEditStatement(tx).rows<{ id: number | string | null }>({
      ...values,
      updatedAt,
      whereCompanyId: actor.companyId,
      whereId: existing.id,
      oldDeviceId: existing.deviceId,
      newDeviceId: values.deviceId,
      ...audit,
    }),
  );
  return saved?.id != null;
}

/** Thrown inside a quick edit's transaction to undo it and save the long way. */
class LongWay extends Error {}

/** `/api/deviceAlarmRule/saveAlarmSetting`: creates a setting, or replaces one when `id` is given. */
export async function saveAlarmSetting(
  db: Db,
  actor: Actor,
  /** Devices the caller may see (org/access.ts). */
  scope: SQL,
  input: SaveAlarmSettingInput,
): Promise<{ id: string }> {
  const { companyId } = actor;
  // The target and the notifiers are read side by side (the embedded database's thread runs
  // statements that arrive together in one call); a target not found is said first, as before.
  const [found, rule] = await Promise.allSettled([
    resolveTarget(db, scope, input),
    ruleValues(db, companyId, input),
  ]);
  if (found.status === 'rejected') throw found.reason;
  if (rule.status === 'rejected') throw rule.reason;
  const target = found.value;
  assertTiersAllowRemoteAlarm([target.device], channelsOf(input));
  const values = {
    ...rule.value,
    carrier: input.carrier,
    targetId: idFromWire(input.targetId)!,
    deviceId: target.deviceId,
    sensorId: target.sensorId,
  };
  // Most edits find no alarm of the rule open: found and saved by one statement each. The others
  // end those alarms, the long way, in a transaction of their own.
  if (input.id !== undefined) {
    const wireId = input.id;
    const quick = await db
      .transaction(async (tx) => {
        const existing = await findSettingToEdit(tx, scope, wireId);
        if (existing.hasOpenAlarm) return null;
        if (!(await quickEdit(tx, actor, existing.row, values))) throw new LongWay();
        return { id: idToWire(existing.row.id) };
      })
      .catch((error: unknown) => {
        if (error instanceof LongWay) return null;
        throw error;
      });
    if (quick) return quick;
  }
  const saved = await db.transaction(async (tx) => {
    if (input.id === undefined) {
      const [row] = await tx.insert(alarmSettings).values(values).returning();
      await recordAudit(tx, actor, {
        action: 'alarmSetting.create',
        targetType: 'alarmSetting',
        targetId: row!.id,
        after: presentSetting(row!),
      });
      return { id: idToWire(row!.id) };
    }
    const existing = await findSetting(tx, scope, input.id);
    await lockDevicesForAlarmChange(tx, companyId, [existing.deviceId, target.deviceId]);
    await endOpenAlarms(
      tx,
      actor,
      eq(alarmRecords.settingId, existing.id),
      editReason(existing, values.enabled),
    );
    await tx.execute(
      sql`delete from alarm_state where company_id = ${companyId} and setting_id = ${existing.id}`,
    );
    const [updated] = await updateRule(tx).execute({
      ...values,
      updatedAt: new Date(),
      whereCompanyId: companyId,
      whereId: existing.id,
    });
    await recordAudit(tx, actor, {
      action: 'alarmSetting.edit',
      targetType: 'alarmSetting',
      targetId: existing.id,
      before: presentSetting(existing),
      after: presentSetting(updated!),
    });
    await syncDeviceStates(tx, companyId, [...new Set([existing.deviceId, target.deviceId])]);
    return { id: idToWire(existing.id) };
  });
  return saved;
}

/**
 * `/api/deviceAlarmRule/batchSaveAlarmSetting`: one new setting per selected device, on the device
 * or on its sensor of the given channel, in one transaction. A device the caller may not see, or
 * one without that channel, fails the whole batch, so a batch never half-applies.
 */
export async function batchSaveAlarmSetting(
  db: Db,
  actor: Actor,
  /** Devices the caller may see (org/access.ts). */
  scope: SQL,
  input: BatchSaveAlarmSettingRequest,
): Promise<{ ids: string[]; count: number }> {
  const { companyId } = actor;
  // Any per-device check saveAlarmSetting makes must be made here for every chosen device too.
  const chosen = await selectedDevices(db, scope, input.deviceIds);
  await assertRemoteAlarmAllowed(
    db,
    chosen.map((d) => d.id),
    channelsOf(input),
  );
  const rule = await ruleValues(db, companyId, input);
  const sensorOf = new Map<number, number>();
  if (input.carrier === 'channel') {
    const rows = await db
      .select({ id: sensors.id, deviceId: sensors.deviceId })
      .from(sensors)
      .where(
        and(
          inArray(
            sensors.deviceId,
            chosen.map((d) => d.id),
          ),
          eq(sensors.channel, input.channel!),
        ),
      );
    for (const row of rows) sensorOf.set(row.deviceId, row.id);
    const missing = chosen.find((d) => !sensorOf.has(d.id));
    if (missing)
      throw new AppError('ALARM_CHANNEL_MISSING', { serial: missing.serial, channel: input.channel! });
  }
  const ids = await db.transaction(async (tx) => {
    const created: string[] = [];
    for (const device of chosen) {
      const sensorId = sensorOf.get(device.id) ?? null;
      const [row] = await tx
        .insert(alarmSettings)
        .values({
          ...rule,
          carrier: sensorId === null ? 'device' : 'sensor',
          targetId: sensorId ?? device.id,
          deviceId: device.id,
          sensorId,
        })
        .returning();
      await recordAudit(tx, actor, {
        action: 'alarmSetting.create',
        targetType: 'alarmSetting',
        targetId: row!.id,
        after: { ...presentSetting(row!), batch: true },
      });
      created.push(idToWire(row!.id));
    }
    return created;
  });
  return { ids, count: ids.length };
}

export async function deleteAlarmSetting(db: Db, actor: Actor, scope: SQL, wireId: string): Promise<void> {
  const { companyId } = actor;
  await db.transaction(async (tx) => {
    const setting = await findSetting(tx, scope, wireId);
    await lockDevicesForAlarmChange(tx, companyId, [setting.deviceId]);
    await endOpenAlarms(tx, actor, eq(alarmRecords.settingId, setting.id), 'ruleDeleted');
    await tx
      .delete(alarmSettings)
      .where(and(eq(alarmSettings.companyId, companyId), eq(alarmSettings.id, setting.id)));
    await syncDeviceStates(tx, companyId, [setting.deviceId]);
    await recordAudit(tx, actor, {
      action: 'alarmSetting.delete',
      targetType: 'alarmSetting',
      targetId: setting.id,
      before: presentSetting(setting),
    });
  });
}

/**
 * `/api/deviceAlarmRule/alarmList`: the settings of a device (its own and its sensors'), or those
 * that apply to a sensor (its own and its device's). A foreign id lists nothing.
 */
export async function listAlarmSettings(
  db: Db,
  companyId: number,
  scope: SQL,
  query: AlarmSettingListRequest,
): Promise<Page<AlarmSettingView>> {
  const filters: SQL[] = [
    eq(alarmSettings.companyId, companyId),
    sql`${alarmSettings.deviceId} IN ${deviceIdsWhere(scope)}`,
  ];
  const deviceId = idFromWire(query.deviceId);
  if (deviceId) filters.push(eq(alarmSettings.deviceId, deviceId));
  const sensorId = idFromWire(query.sensorId);
  if (sensorId) {
    filters.push(
      or(
        eq(alarmSettings.sensorId, sensorId),
        and(
          isNull(alarmSettings.sensorId),
          sql`${alarmSettings.deviceId} = (select device_id from sensors where company_id = ${companyId} and id = ${sensorId})`,
        ),
      )!,
    );
  }
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(alarmSettings).where(where);
  const rows = await db
    .select()
    .from(alarmSettings)
    .where(where)
    .orderBy(asc(alarmSettings.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map(presentSetting),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
