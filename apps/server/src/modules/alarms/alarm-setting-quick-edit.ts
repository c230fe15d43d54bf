import { and, eq, getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { builtOnce, builtSqlOnce, placeholdersFor, UNNAMED } from '../../db/built-once';
import type { Db, Tx } from '../../db/client';
import { runsAlone } from '../../db/one-session';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, auditedChangeSql, auditedValues } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { deviceIdsWhere, wholeCompanyOf } from '../org/access';
import { rememberedKey, ruleEdits, type SettingToEdit } from './alarm-rule-edits';
import { presentSetting, STORED_RULE_COLUMNS, type StoredRule } from './alarm-rule-values';
import { deviceStatesFromAlarms, type SettingRow } from './alarm-writer';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/*
 * A rule edit with no alarm of the rule open, as one statement (docs/decisions.md, "A rule edit
 * with no alarm open is one statement"); saveAlarmSetting takes the long way, a transaction that
 * ends those alarms, otherwise.
 */

/**
 * A setting, and whether an alarm of it is open (an edit must end it: the long way). The rule's
 * columns are named with their table: drizzle writes a column of a `with` query's selection
 * without it, and inside the alarms' subquery `"id"` would be the alarm's.
 */
const SETTING_TO_EDIT = {
  ...getTableColumns(alarmSettings),
  hasOpenAlarm: sql<boolean>`exists (select 1 from ${alarmRecords} r
    where r.company_id = "alarm_settings"."company_id" and r.setting_id = "alarm_settings"."id"
      and r.end_time is null)`.as('has_open_alarm'),
};

/** A value of `settingQuery`: given, or a placeholder of a statement built once. */
type Value = number | Placeholder;

/** A found rule's row as a query of this file answers it. */
type FoundSetting = SettingRow & { hasOpenAlarm: boolean };

/**
 * The columns an edit's statement checks before it writes: every column a save writes but the
 * instant, so every field of the entry's `before` (`presentSetting`). The statement writes only a
 * rule whose columns are still those the edit started from, whoever changed them since and
 * however (an edit, a notifier removed from the company, a change and its undoing).
 */
const CHECKED_COLUMNS = (Object.keys(STORED_RULE_COLUMNS) as (keyof StoredRule)[]).filter(
  (field) => field !== 'updatedAt',
);

/**
 * `CHECKED_COLUMNS` of the rule being updated as a jsonb object, compared with `rule`'s below.
 * jsonb compares numbers by value, objects whatever their keys' order: a float read back is its
 * shortest digits on either side, equal exactly when the double is.
 */
const checkedOfRow = sql.join(
  [
    sql`jsonb_build_object(`,
    sql.join(
      CHECKED_COLUMNS.map((field) => sql`${sql.raw(`'${field}'`)}, ${alarmSettings[field]}`),
      sql`, `,
    ),
    sql`)`,
  ],
  sql``,
);

/** `CHECKED_COLUMNS` of `rule` as JSON text, for `checkedOfRow` to equal. */
function checkedOf(rule: SettingRow): string {
  return JSON.stringify(Object.fromEntries(CHECKED_COLUMNS.map((field) => [field, rule[field]])));
}

/**
 * The find of rule `id` in `scope`; on PostgreSQL with its locks, in the order of every rule change
 * (the rule first, then its devices, then the chain; alarm-writer.ts, `lockDevicesForAlarmChange`):
 * the rule is read `for no key update` in a `with` query, and the devices (its own and
 * `newDeviceId`, where the edit puts it) are locked by a subquery of the select that reads it, so
 * after it. The embedded database runs one statement at a time: there the read takes no lock,
 * which would only write the row.
 */
function settingQuery(q: Db | Tx, scope: SQL, id: Value, companyId: Value, newDeviceId: Value) {
  const read = q
    .select(SETTING_TO_EDIT)
    .from(alarmSettings)
    .where(and(eq(alarmSettings.id, id), sql`${alarmSettings.deviceId} IN ${deviceIdsWhere(scope)}`))
    .limit(1);
  if (runsAlone(q)) return read;
  const rule = q.$with('rule').as(read.for('no key update'));
  return q
    .with(rule)
    .select({
      ...rule._.selectedFields,
      devicesLocked: sql<number>`(select count(*) from (
        select 1 from ${devices} d where d.company_id = ${companyId}::bigint
          and d.id in ("rule"."device_id", ${newDeviceId}::bigint)
        order by d.id for no key update) locked)`,
    })
    .from(rule);
}

/** `settingQuery` for a caller who sees the whole company, its SQL built once per driver. */
const settingToEditOfWholeCompany = builtOnce((q) => {
  const p = sql.placeholder;
  const wholeCompany = eq(devices.companyId, p('companyId'));
  return settingQuery(q, wholeCompany, p('id'), p('companyId'), p('newDeviceId')).prepare(UNNAMED);
});

/**
 * The rule `wireId` in the caller's `scope`, a rule of `companyId`. On PostgreSQL, inside the
 * edit's transaction, with its locks (`settingQuery`: the devices' are the rule's and
 * `newDeviceId`); on the embedded database read on its own, alongside the edit's other reads
 * (`settingToEditAhead`).
 */
async function findSettingToEdit(
  q: Db | Tx,
  companyId: number,
  scope: SQL,
  wireId: string,
  newDeviceId = 0,
): Promise<SettingToEdit> {
  const id = idFromWire(wireId);
  const [found] = (
    !id
      ? []
      : wholeCompanyOf(scope) === companyId
        ? await settingToEditOfWholeCompany(q).execute({ id, companyId, newDeviceId })
        : await settingQuery(q, scope, id, companyId, newDeviceId)
  ) as (FoundSetting & { devicesLocked?: number })[];
  if (!found) throw new AppError('ALARM_SETTING_NOT_FOUND');
  const { hasOpenAlarm, devicesLocked: _locks, ...row } = found;
  return { row, hasOpenAlarm };
}

/**
 * The rule an edit names, read ahead of the edit, alongside its other reads, where that is safe:
 * on the embedded database, where the edit's statement checks that the rule is still as read;
 * not when the row its last quick edit wrote is remembered (`RuleEdits`), which the edit
 * starts from. Undefined on PostgreSQL, where the edit finds the rule in its transaction, locked.
 */
export function settingToEditAhead(
  db: Db,
  companyId: number,
  scope: SQL,
  wireId: string,
): Promise<SettingToEdit> | undefined {
  if (!runsAlone(db)) return undefined;
  const key = rememberedKey(companyId, scope, wireId);
  if (key && ruleEdits(db).written(key)) return undefined;
  return findSettingToEdit(db, companyId, scope, wireId);
}

/**
 * An edit as one statement (docs/performance.md, "Audited writes"): the rule's update, if it is
 * still as the edit read it (`checkedOfRow`; on PostgreSQL it was read locked, and `checked` is
 * null) and no alarm of it is open (ingest may have raised one since the read); its
 * engine states dropped, so judging starts afresh; its devices' state (the old and the new device)
 * set from the states left, 2 while any is active, as `syncDeviceStates` does; and its audit entry.
 * It answers the rule's id, or none when it changed nothing: then the rule was changed or an alarm
 * raised since the read, and the caller saves the rule the long way. The sub-statements share one
 * snapshot, so the dropped states are left out of the devices' by their setting.
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
        sql`(${sql.placeholder('checked')}::jsonb is null or ${checkedOfRow} = ${sql.placeholder('checked')}::jsonb)`,
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
  return plannedOnce(auditedChangeSql({ change, alongside, answer: sql`select id from changed` }));
});

/**
 * Sends the edit of `found` by `quickEditStatement` in `q`, at once (no `await` before it): the
 * rule as the statement writes it, and whether it did (false: it must go the long way).
 */
function sendQuickEdit(
  q: Db | Tx,
  actor: Actor,
  found: SettingToEdit,
  values: Omit<StoredRule, 'updatedAt'>,
): { written: SettingToEdit; saved: Promise<boolean> } {
  const existing = found.row;
  const updatedAt = new Date();
  const written: SettingRow = { ...existing, ...values, updatedAt };
  const audit = auditedValues({
    actor,
    action: 'alarmSetting.edit',
    targetType: 'alarmSetting',
    targetId: existing.id,
    before: presentSetting(existing),
    after: presentSetting(written),
  });
  // On PostgreSQL the rule and its devices are locked already (findSettingToEdit); the statement
  // takes the chain's head last. On the embedded database nothing is sent before it.
  const saved = quickEditStatement(q)
    .rows<{ id: number | string }>({
      ...values,
      updatedAt,
      whereCompanyId: actor.companyId,
      whereId: existing.id,
      // On PostgreSQL the rule was read locked in this transaction: nothing can have changed it.
      checked: runsAlone(q) ? checkedOf(existing) : null,
      oldDeviceId: existing.deviceId,
      newDeviceId: values.deviceId,
      ...audit,
    })
    .then((rows) => rows.length > 0);
  return { written: { row: written, hasOpenAlarm: false }, saved };
}

/** Thrown inside a quick edit's transaction to undo it and save the long way. */
class LongWay extends Error {}

/**
 * Saves the edit of rule `wireId` (found in `scope`, or read ahead: `settingToEditAhead`) as
 * `values`, when no alarm of the rule is open: its id, or null when the edit must go the long way
 * (an alarm to end, or the rule changed or an alarm raised since the read; then nothing was
 * written).
 *
 * On the embedded database the statement runs on its own, a transaction of its own: nothing runs
 * between its check of the rule and its open alarms and its writes; the edits of one rule by
 * callers who see the whole company are sent one after another, each from the row the one before
 * writes (`RuleEdits`). On PostgreSQL it runs
 * in a transaction after the rule's and the devices' locks: ingest holds a device while it raises
 * an alarm, and only a statement begun after the device's lock sees that alarm (read committed
 * takes each statement's snapshot at its start), so the check and the locks cannot be one statement.
 */
export async function tryQuickEdit(
  db: Db,
  actor: Actor,
  scope: SQL,
  wireId: string,
  values: Omit<StoredRule, 'updatedAt'>,
  ahead?: SettingToEdit,
): Promise<{ id: string } | null> {
  if (runsAlone(db)) {
    // A whole-company caller's edit takes its turn and is remembered (`RuleEdits`); others not.
    const key = rememberedKey(actor.companyId, scope, wireId);
    const edits = ruleEdits(db);
    const send = async () => {
      const found =
        (key && edits.written(key)) || ahead || (await findSettingToEdit(db, actor.companyId, scope, wireId));
      const edit = found.hasOpenAlarm ? undefined : sendQuickEdit(db, actor, found, values);
      if (key) edits.remember(key, edit?.written);
      return edit && { id: found.row.id, ...edit };
    };
    // The turn ends when the statement is sent; its answer is awaited outside it.
    const sent = await (key ? edits.turns.run(key, send) : send());
    if (!sent) return null;
    const saved = await sent.saved.catch((error: unknown) => {
      if (key) edits.forget(key, sent.written);
      throw error;
    });
    if (!saved && key) edits.forget(key, sent.written);
    return saved ? { id: idToWire(sent.id) } : null;
  }
  return db
    .transaction(async (tx) => {
      const found = await findSettingToEdit(tx, actor.companyId, scope, wireId, values.deviceId);
      if (found.hasOpenAlarm) return null;
      if (!(await sendQuickEdit(tx, actor, found, values).saved)) throw new LongWay();
      return { id: idToWire(found.row.id) };
    })
    .catch((error: unknown) => {
      if (error instanceof LongWay) return null;
      throw error;
    });
}
