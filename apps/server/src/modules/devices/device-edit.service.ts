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

/** The columns an edit writes: the form's settings, and the place the route resolved. */
function editedColumnsOf(input: EditDeviceRequest, placement: DevicePlacement): EditedColumns {
  return {
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
}

/** The device a statement of this file answers (a JSON column: text on some drivers), as the API shows it. */
function editedView(row: DeviceJson | string): DeviceView {
  const raw: DeviceJson = typeof row === 'string' ? JSON.parse(row) : row;
  return { ...presentDeviceJson(raw), editable: true };
}

/** Edits `device`, which the caller found in its editable scope (`findDevice`). */
export async function editDevice(
  db: Db,
  actor: Actor,
  device: DeviceRow,
  input: EditDeviceRequest,
  placement: DevicePlacement,
): Promise<DeviceView> {
  const edited = editedColumnsOf(input, placement);
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
  return editedView(found.row);
}

/**
 * `editableOf` of the row `old` as canonical JSON text (audit-chain.ts: keys sorted, no spaces),
 * built by the statement: the entry's `before` when the edit reads the device itself. Below, each
 * field of `editableOf` with the column it reads (a field added there fails to compile until it is
 * here). Each value is PostgreSQL's JSON of the column (`to_json` escapes text as JSON.stringify
 * does, integers are their digits); the edit's test verifies the chain with text that needs
 * escaping, and compares the entry's `before` with `editableOf` of the row.
 */
const COLUMN_OF_FIELD: Record<keyof ReturnType<typeof editableOf>, string> = {
  name: 'name',
  departmentId: 'department_id',
  groupId: 'group_id',
  recordInterval: 'record_interval_s',
  uploadInterval: 'upload_interval_s',
  alarmVerifyInterval: 'alarm_verify_interval_s',
  offlineJudgement: 'offline_judgement',
  hostAddress: 'host_address',
  subAddress: 'sub_address',
  remark: 'remark',
  region: 'region',
  address: 'address',
};
const beforeOfOld = sql.raw(
  `'{' || ${Object.entries(COLUMN_OF_FIELD)
    // Canonical JSON's order: keys sorted as audit-chain.ts sorts them (code units).
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([key, column], i) =>
        `'${i === 0 ? '' : ','}"${key}":' || coalesce(to_json(old.${column})::text, 'null')`,
    )
    .join(' || ')} || '}'`,
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
  const edited = editedColumnsOf(input, {
    departmentId: idFromWire(input.departmentId),
    groupId: idFromWire(input.groupId),
  });

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
  const view = editedView(answer.row);
  deviceChanged(view.serial);
  return view;
}
