import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { builtOnce, builtSqlOnce, placeholdersFor, UNNAMED } from '../../db/built-once';
import type { Db, Tx } from '../../db/client';
import { runsAlone } from '../../db/one-session';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, auditedChangeSql, auditedValues, inAuditedOrder } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { deviceIdsWhere, wholeCompanyOf } from '../org/access';
import { presentSetting, STORED_RULE_COLUMNS, type StoredRule } from './alarm-rule-values';
import { deviceStatesFromAlarms, devicesLockFor, type SettingRow } from './alarm-writer';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/*
 * A rule edit with no alarm of the rule open, as one statement after its find (docs/decisions.md,
 * "The hot audited writes are one statement each"); saveAlarmSetting takes the long way otherwise.
 */

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
  const alongside = sql`cleared as (
      delete from ${alarmState} where company_id = ${companyId} and setting_id in (select id from changed)
    ), ${deviceStatesFromAlarms({
      companyId,
      // Only when the rule was changed: an edit that must go the long way writes nothing here.
      deviceIds: sql`select unnest(array[${sql.placeholder('oldDeviceId')}::bigint,
        ${sql.placeholder('newDeviceId')}::bigint]) where exists (select 1 from changed)`,
      counted: sql`s.setting_id <> ${settingId}`,
    })}`;
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
  // The rule is locked already (findSettingToEdit); then its devices, then (the statement) the chain.
  const devicesLocks = [devicesLockFor(actor.companyId, [existing.deviceId, values.deviceId])];
  const [saved] = await inAuditedOrder(tx, devicesLocks, () =>
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

/**
 * Saves the edit of rule `wireId` (found in `scope`) as `values` by one statement, when no alarm
 * of the rule is open: its id, or null when the edit must go the long way (an alarm to end, or
 * one raised since the find; then nothing was written).
 */
export async function tryQuickEdit(
  db: Db,
  actor: Actor,
  scope: SQL,
  wireId: string,
  values: Omit<StoredRule, 'updatedAt'>,
): Promise<{ id: string } | null> {
  return db
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
}
