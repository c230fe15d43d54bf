import type { DeviceView, Page, PageDevicesRequest } from '@coldchain/contract';
import { and, type SQL, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { type PageQuery, pageOf, whenGiven } from '../../db/page-query';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { alarmRecords } from '../alarms/alarms.table';
import { presentDevice } from './devices.service';
import { devices, sensors } from './devices.table';
import { sensorEquipmentFrom, sensorEquipmentJson } from './sensor-equipment';

/**
 * Which devices of a list the caller may change, so the console offers Edit only where the edit
 * call would succeed: `false` without the `device:edit` tag, `true` when the caller's edit scope is
 * the whole company (then it is their whole view), else the condition on `devices` of
 * `editableDevices` (org/access.ts), evaluated per row inside the list's statement.
 */
export type DeviceEditability = boolean | SQL;

/** Every column the views show: all but the key hash. */
const DEVICE_ROW = jsonRowOf(devices, 'devices', [
  'id',
  'companyId',
  'serial',
  'name',
  'model',
  'version',
  'departmentId',
  'groupId',
  'state',
  'recordIntervalS',
  'uploadIntervalS',
  'alarmVerifyIntervalS',
  'offlineJudgement',
  'hostAddress',
  'subAddress',
  'remark',
  'region',
  'address',
  'lng',
  'lat',
  'battery',
  'power',
  'mode',
  'expireTime',
  'lastSeenAt',
  'createdAt',
]);
const SENSOR_ROW = jsonRowOf(sensors, 's');

/**
 * A device as one JSON value: its columns, its sensors, the sensors with an excursion still open
 * (the channel state's "alarm", as `alarmingSensorIds` finds them) and whether the caller may edit
 * it. Evaluated for the rows answered only.
 */
export function deviceRow(editable: DeviceEditability): SQL {
  return sql`json_build_object(
    'device', ${DEVICE_ROW},
    'sensors', coalesce((select json_agg(${SENSOR_ROW}) from ${sensors} s where s.device_id = ${devices.id}), '[]'::json),
    'alarming', coalesce((
      select json_agg(a.sensor_id) from ${alarmRecords} a
      where a.company_id = ${devices.companyId} and a.device_id = ${devices.id}
        and a.end_time is null and a.sensor_id is not null), '[]'::json),
    'editable', ${typeof editable === 'boolean' ? sql`${editable}::boolean` : sql`(${editable})`})`;
}

export interface DeviceJson {
  device: Record<string, unknown>;
  sensors: Record<string, unknown>[];
  alarming: (number | string)[];
  editable: boolean;
}

export function presentDeviceJson(raw: DeviceJson): DeviceView {
  return {
    ...presentDevice(
      decodeJsonRow(devices, raw.device),
      raw.sensors.map((s) => decodeJsonRow(sensors, s)),
      new Set(raw.alarming.map(Number)),
    ),
    editable: raw.editable,
  };
}

/** `/api/device/pageDevices`: by name, then id; one statement (db/page-query.ts). */
export async function pageDevices(
  db: Queryable,
  /** Devices the caller may see (org/access.ts `visibleDevices`). */
  scope: SQL,
  query: PageDevicesRequest,
  editable: DeviceEditability = false,
): Promise<Page<DeviceView>> {
  return pageOf(db, deviceListQuery(scope, query, editable), query, presentDeviceJson);
}

/**
 * The device list as `pageOf` pages it, in the order of the index `devices_company_name_idx`
 * (company, name, id), so that a page of a large company walks the index and stops after its
 * rows. The list without filters, what the device screen opens on, is a statement of its own:
 * planned once for every value (the embedded database's generic plan, db/planned-once.ts), the
 * filters written with `whenGiven` read to the planner as if they kept about one device, and for
 * one device sorting beats the index, so every page sorted the whole company (19 000 devices:
 * 29 ms a page instead of 14; device-list-scale.test.ts checks the plan).
 */
export function deviceListQuery(
  scope: SQL,
  query: PageDevicesRequest,
  editable: DeviceEditability,
): PageQuery {
  const row = deviceRow(editable);
  const orderBy = sql`${devices.name}, ${devices.id}`;
  const departmentId = idFromWire(query.departmentId);
  const groupId = idFromWire(query.groupId);
  if (!query.state && !departmentId && !groupId && !query.keyword)
    return { row, from: devices, where: scope, orderBy };
  const like = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    scope,
    whenGiven(query.state || null, 'smallint', (v) => sql`${devices.state} = ${v}`),
    whenGiven(departmentId, 'bigint', (v) => sql`${devices.departmentId} = ${v}`),
    whenGiven(groupId, 'bigint', (v) => sql`${devices.groupId} = ${v}`),
    whenGiven(like, 'text', (v) => sql`(${devices.name} ilike ${v} or ${devices.serial} ilike ${v})`),
  );
  return { row, from: devices, where, orderBy };
}

/** `/api/device/deviceDetail`: the device with its sensors, and the equipment those measure. */
export async function getDeviceDetail(
  db: Queryable,
  scope: SQL,
  wireId: string,
  editable: DeviceEditability = false,
): Promise<DeviceView> {
  const id = idFromWire(wireId);
  if (!id) throw new AppError('DEVICE_NOT_FOUND');
  // Which equipment each sensor measures, and whether that pauses its alarms (docs/API.md), in
  // the same statement.
  const [found] = await queryRows<{
    row: DeviceJson | string;
    equipment: Parameters<typeof sensorEquipmentFrom>[0];
  }>(
    db,
    plannedOnce(sql`select ${deviceRow(editable)} as row,
        ${sensorEquipmentJson(sql`s.device_id = ${devices.id}`)} as equipment
      from ${devices}
      where ${scope} and ${devices.id} = ${id}::bigint limit 1`),
  );
  if (!found) throw new AppError('DEVICE_NOT_FOUND');
  const raw: DeviceJson = typeof found.row === 'string' ? JSON.parse(found.row) : found.row;
  const view = presentDeviceJson(raw);
  const measured = sensorEquipmentFrom(found.equipment);
  return {
    ...view,
    sensors: view.sensors.map((s) => ({ ...s, equipment: measured.get(Number(s.id)) ?? null })),
  };
}
