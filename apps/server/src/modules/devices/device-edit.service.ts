import type { DeviceView, EditDeviceRequest } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { builtSqlOnce, placeholdersFor } from '../../db/built-once';
import type { Db } from '../../db/client';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { type Actor, auditedChangeSql, auditedValues } from '../audit/audit.service';
import { type DeviceJson, deviceRow, presentDeviceJson } from './device-views';
import { deviceChanged, editableOf } from './devices.service';
import { devices } from './devices.table';

type DeviceRow = typeof devices.$inferSelect;

/** Where an edit puts the device: its department and group, resolved and checked by the route. */
export interface DevicePlacement {
  departmentId: number | null;
  groupId: number | null;
}

/** Every column an edit writes, as the update sets them: the form's settings and the place. */
type EditedColumns = Pick<
  DeviceRow,
  | 'name'
  | 'departmentId'
  | 'groupId'
  | 'recordIntervalS'
  | 'uploadIntervalS'
  | 'alarmVerifyIntervalS'
  | 'offlineJudgement'
  | 'hostAddress'
  | 'subAddress'
  | 'remark'
  | 'region'
  | 'address'
>;

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
