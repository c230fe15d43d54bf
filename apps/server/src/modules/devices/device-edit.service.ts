import type { DeviceView, EditDeviceRequest } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { builtSqlOnce, placeholdersFor } from '../../db/built-once';
import type { Db } from '../../db/client';
import { runsAlone } from '../../db/one-session';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { type Actor, auditedChangeSql, auditedValues } from '../audit/audit.service';
import { type DeviceJson, deviceRow, presentDeviceJson } from './device-views';
import { deviceChanged, type EditableColumns, editableOf } from './devices.service';
import { devices } from './devices.table';

type DeviceRow = typeof devices.$inferSelect;

/** Where an edit puts the device: its department and group, resolved and checked by the route. */
export interface DevicePlacement {
  departmentId: number | null;
  groupId: number | null;
}

/** Every column an edit writes, as the update sets them: the form's settings and the place. */
type EditedColumns = EditableColumns;

/** The names of `EditedColumns`; a column added there fails to compile until it is listed here. */
const EDITED_COLUMNS = {
  name: true,
  departmentId: true,
  groupId: true,
  recordIntervalS: true,
  uploadIntervalS: true,
  alarmVerifyIntervalS: true,
  offlineJudgement: true,
  hostAddress: true,
  subAddress: true,
  remark: true,
  region: true,
  address: true,
} satisfies Record<keyof EditedColumns, true>;

/**
 * An edit as one statement, built once: the update, its audit entry and the answer (the device
 * as `deviceDetail`'s list row shows it, sensors and open excursions included), where it was a
 * transaction of four statements and two reads after it (docs/performance.md, "Audited writes").
 * The answer is read from the updated row (`changed`, named as the table so the row's SQL finds
 * its columns); the sensors and alarms it reads are not changed by the statement.
 */
const editStatement = builtSqlOnce((q) =>
  plannedOnce(
    auditedChangeSql({
      change: q
        .update(devices)
        .set(placeholdersFor(EDITED_COLUMNS))
        .where(eq(devices.id, sql.placeholder('whereId')))
        .returning()
        .getSQL(),
      answer: sql`select ${deviceRow(true)} as row from changed as ${devices}`,
    }),
  ),
);

/** Edits `device`, which the caller found in its editable scope (`findDevice`). */
export async function editDevice(
  db: Db,
  actor: Actor,
  device: DeviceRow,
  input: EditDeviceRequest,
  placement: DevicePlacement,
): Promise<DeviceView> {
  const edited: EditedColumns = {
    name: input.name,
    departmentId: placement.departmentId,
    groupId: placement.groupId,
    recordIntervalS: input.recordInterval,
    uploadIntervalS: input.uploadInterval,
    alarmVerifyIntervalS: input.alarmVerifyInterval,
    offlineJudgement: input.offlineJudgement,
    hostAddress: input.hostAddress,
    subAddress: input.subAddress,
    remark: input.remark,
    region: input.region,
    address: input.address,
  };
  // The entry's `after` is what the update writes: every edited column is set from `edited`.
  const audit = auditedValues({
    actor,
    action: 'device.edit',
    targetType: 'device',
    targetId: device.id,
    before: editableOf(device),
    after: editableOf({ ...device, ...edited }),
  });
  // One statement, a transaction of its own on either database (auditedChangeSql).
  const [found] = await editStatement(db).rows<{ row: DeviceJson | string }>({
    whereId: device.id,
    ...edited,
    ...audit,
  });
  deviceChanged(device.serial);
  // The device was found in the caller's editable scope just before; if it was deleted since, the
  // update found no row and nothing was written or audited.
  if (!found) throw new AppError('DEVICE_NOT_FOUND');
  const raw: DeviceJson = typeof found.row === 'string' ? JSON.parse(found.row) : found.row;
  return { ...presentDeviceJson(raw), editable: true };
}

/**
 * `editableOf` of the row `old` as canonical JSON text (audit-chain.ts: keys sorted, no spaces),
 * built by the statement: the entry's `before` when the edit reads the device itself. Each value
 * is PostgreSQL's JSON of the column (`to_json` escapes text as JSON.stringify does, integers are
 * their digits); the test of the edit verifies the chain with text that needs escaping.
 */
const BEFORE_IN_SQL: [key: keyof ReturnType<typeof editableOf>, column: string][] = [
  ['address', 'address'],
  ['alarmVerifyInterval', 'alarm_verify_interval_s'],
  ['departmentId', 'department_id'],
  ['groupId', 'group_id'],
  ['hostAddress', 'host_address'],
  ['name', 'name'],
  ['offlineJudgement', 'offline_judgement'],
  ['recordInterval', 'record_interval_s'],
  ['region', 'region'],
  ['remark', 'remark'],
  ['subAddress', 'sub_address'],
  ['uploadInterval', 'upload_interval_s'],
];
const beforeOfOld = sql.raw(
  `'{' || ${BEFORE_IN_SQL.map(
    ([key, column], i) =>
      `'${i === 0 ? '' : ','}"${key}":' || coalesce(to_json(old.${column})::text, 'null')`,
  ).join(' || ')} || '}'`,
);

/**
 * An edit that keeps the device in its department and group, by a caller who sees the whole
 * company, as one statement with the device's find in it: the device read (`old`; on PostgreSQL
 * locked, so that an edit which waited for another reads what that one wrote), the update if the
 * department and group sent are the device's own (then nothing about them needs checking), the
 * audit entry with `before` read from `old`, and the answer. Most edits are of this kind (the
 * console's form sends the device's place back unchanged); it saves the find's statement, a third
 * of an edit's time on the embedded database (docs/performance.md, "Audited writes").
 */
const inPlaceStatement = builtSqlOnce((q) => {
  const lock = runsAlone(q) ? sql`` : sql` for no key update`;
  const p = sql.placeholder;
  const reads = sql`old as (
      select * from ${devices} where company_id = ${p('whereCompanyId')}::bigint and id = ${p('whereId')}::bigint${lock}
    )`;
  const change = q
    .update(devices)
    .set(placeholdersFor(EDITED_COLUMNS))
    .where(
      sql`${devices.id} = (select id from old where department_id is not distinct from ${p('departmentId')}::bigint
        and group_id is not distinct from ${p('groupId')}::bigint)`,
    )
    .returning()
    .getSQL();
  return plannedOnce(
    auditedChangeSql({
      reads,
      change,
      before: sql`(select ${beforeOfOld} from old)`,
      answer: sql`select (select ${deviceRow(true)} from changed as ${devices}) as row, exists (select 1 from old) as found`,
    }),
  );
});

/**
 * Edits the device `input` names, in one statement, when the caller sees the whole company and the
 * edit keeps the device where it is: the device, or `null` when the edit moves it (the caller
 * then finds it and checks its new place, `editDevice`). A device that is not the company's, or
 * not there, is refused as not found.
 */
export async function editDeviceInPlace(
  db: Db,
  actor: Actor,
  input: EditDeviceRequest & { departmentId: string | null; groupId: string | null },
): Promise<DeviceView | null> {
  const id = idFromWire(input.id);
  if (!id) throw new AppError('DEVICE_NOT_FOUND');
  const edited: EditedColumns = {
    name: input.name,
    departmentId: idFromWire(input.departmentId),
    groupId: idFromWire(input.groupId),
    recordIntervalS: input.recordInterval,
    uploadIntervalS: input.uploadInterval,
    alarmVerifyIntervalS: input.alarmVerifyInterval,
    offlineJudgement: input.offlineJudgement,
    hostAddress: input.hostAddress,
    subAddress: input.subAddress,
    remark: input.remark,
    region: input.region,
    address: input.address,
  };
  // `before` is read by the statement; `after` is what the update writes (every edited column).
  const audit = auditedValues({
    actor,
    action: 'device.edit',
    targetType: 'device',
    targetId: id,
    after: editableOf(edited),
  });
  const [answer] = await inPlaceStatement(db).rows<{ row: DeviceJson | string | null; found: boolean }>({
    whereCompanyId: actor.companyId,
    whereId: id,
    ...edited,
    ...audit,
  });
  if (!answer?.found) throw new AppError('DEVICE_NOT_FOUND');
  if (answer.row === null) return null;
  const raw: DeviceJson = typeof answer.row === 'string' ? JSON.parse(answer.row) : answer.row;
  const view = presentDeviceJson(raw);
  deviceChanged(view.serial);
  return { ...view, editable: true };
}
