import type {
  AlarmEndReason,
  AlarmSettingListRequest,
  AlarmSettingView,
  BatchSaveAlarmSettingRequest,
  Page,
} from '@coldchain/contract';
import { and, asc, count, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { builtOnce, placeholdersFor, UNNAMED } from '../../db/built-once';
import type { Db, Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companyMembers } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { selectedDevices } from '../devices/devices-batch.service';
import { deviceIdsWhere, wholeCompanyOf } from '../org/access';
import { endOpenAlarms } from './alarm-end';
import {
  assertAllMembers,
  channelsOf,
  notifiersOf,
  presentSetting,
  ruleValues,
  type SaveAlarmSettingInput,
  STORED_RULE_COLUMNS,
  storedRuleOf,
} from './alarm-rule-values';
import { settingToEditAhead, tryQuickEdit } from './alarm-setting-quick-edit';
import { lockDevicesForAlarmChange, type SettingRow, syncDeviceStates } from './alarm-writer';
import { alarmRecords, alarmSettings } from './alarms.table';
import { assertRemoteAlarmAllowed, assertTiersAllowRemoteAlarm } from './remote-alarm';

// The rule's shapes live in alarm-rule-values.ts; these are what callers of the saves import.
export { channelsOf, presentSetting, type SaveAlarmSettingInput };

/**
 * The device (and sensor) a setting is on, with the device's serial and version for the remote
 * alarm check, and how many of `notifiers` are members of `companyId`, read with it (one
 * statement where two were: each costs the embedded database's thread its own floor); a target
 * of another company does not exist.
 */
async function resolveTarget(
  db: Db,
  scope: SQL,
  input: SaveAlarmSettingInput,
  companyId: number,
  notifiers: number[],
) {
  const id = idFromWire(input.targetId);
  const members =
    notifiers.length === 0
      ? sql<number>`0`
      : sql<number>`(select count(*)::int from ${companyMembers} m
          where m.company_id = ${companyId} and m.user_id = any(${pgArray(notifiers)}::bigint[]))`;
  const device = { id: devices.id, serial: devices.serial, version: devices.version };
  if (input.carrier === 'device') {
    const [found] = id
      ? await db
          .select({ device, members })
          .from(devices)
          .where(and(scope, eq(devices.id, id)))
          .limit(1)
      : [];
    if (!found) throw new AppError('DEVICE_NOT_FOUND');
    return { deviceId: found.device.id, sensorId: null, device: found.device, members: found.members };
  }
  const [sensor] = id
    ? await db
        .select({ id: sensors.id, device, members })
        .from(sensors)
        .innerJoin(devices, eq(devices.id, sensors.deviceId))
        .where(and(eq(sensors.id, id), scope))
        .limit(1)
    : [];
  if (!sensor) throw new AppError('SENSOR_NOT_FOUND');
  return { deviceId: sensor.device.id, sensorId: sensor.id, device: sensor.device, members: sensor.members };
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

/** Why an edit ends the open alarms: switching the rule off, or changing it. */
const editReason = (existing: SettingRow, enabled: boolean): AlarmEndReason =>
  existing.enabled && !enabled ? 'ruleDisabled' : 'ruleEdited';

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

/** `/api/deviceAlarmRule/saveAlarmSetting`: creates a setting, or replaces one when `id` is given. */
export async function saveAlarmSetting(
  db: Db,
  actor: Actor,
  /** Devices the caller may see (org/access.ts). */
  scope: SQL,
  input: SaveAlarmSettingInput,
): Promise<{ id: string }> {
  const { companyId } = actor;
  // The target with its notifiers' membership and (on the embedded database) the rule edited are
  // read side by side (the embedded database's thread runs statements that arrive together in one
  // call); a target not found is said first, then notifiers, then the rule.
  const rule = storedRuleOf(companyId, input);
  const notifiers = notifiersOf(rule);
  const ahead = input.id === undefined ? undefined : settingToEditAhead(db, companyId, scope, input.id);
  const [found, edited] = await Promise.allSettled([
    resolveTarget(db, scope, input, companyId, notifiers),
    ahead,
  ]);
  if (found.status === 'rejected') throw found.reason;
  const target = found.value;
  assertAllMembers(notifiers, target.members);
  if (edited.status === 'rejected') throw edited.reason;
  assertTiersAllowRemoteAlarm([target.device], channelsOf(input));
  const values = {
    ...rule,
    carrier: input.carrier,
    targetId: idFromWire(input.targetId)!,
    deviceId: target.deviceId,
    sensorId: target.sensorId,
  };
  // Most edits find no alarm of the rule open: saved by one statement (alarm-setting-quick-edit.ts).
  // The others end those alarms, the long way, in a transaction of their own.
  if (input.id !== undefined) {
    const quick = await tryQuickEdit(db, actor, scope, input.id, values, edited.value);
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
