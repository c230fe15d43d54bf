import {
  type EquipmentDetail,
  type EquipmentItem,
  EquipmentUseState,
  type Page,
  type PageEquipmentRequest,
  type SaveEquipmentRequest,
  type SensorOption,
  type WireLanguage,
} from '@coldchain/contract';
import { and, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices, sensors } from '../devices/devices.table';
import type { FileStore } from '../files/store/store';
import { deviceGroups } from '../groups/groups.table';
import { assertDepartmentInScope, editableDevices } from '../org/access';
import { departments } from '../org/org.table';
import { equipment, equipmentSensors, equipmentTypes } from './equipment.table';
import { equipmentInScope, equipmentOf } from './equipment-access';
import { acceptValues, attributeIssues, currentValues, valuesFit } from './equipment-attributes';
import { alarmSuppressedNow } from './equipment-suppression';
import { presentType, typeOf } from './equipment-types.service';

type Files = { store: FileStore; language: WireLanguage };

async function groupOf(db: Queryable, companyId: number, wireId: string | undefined, current: number | null) {
  if (wireId === undefined) return current;
  if (wireId === '') return null;
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select({ id: deviceGroups.id })
        .from(deviceGroups)
        .where(and(eq(deviceGroups.id, id), eq(deviceGroups.companyId, companyId)))
    : [];
  if (!row) throw new AppError('GROUP_NOT_FOUND');
  return row.id;
}

/** Binds exactly `sensorIds`: each of a monitor the caller may change and of no other equipment. */
async function bindSensors(tx: Queryable, auth: Auth, equipmentId: number, sensorIds: string[]) {
  const ids = [...new Set(sensorIds.map((s) => idFromWire(s) ?? -1))];
  const found = ids.length
    ? await tx
        .select({ id: sensors.id, name: sensors.name, serial: devices.serial, channel: sensors.channel })
        .from(sensors)
        .innerJoin(devices, eq(devices.id, sensors.deviceId))
        .where(and(inArray(sensors.id, ids), editableDevices(auth)))
    : [];
  if (found.length !== ids.length) throw new AppError('SENSOR_NOT_FOUND');
  const taken = ids.length
    ? await tx
        .select({ sensorId: equipmentSensors.sensorId, name: equipment.name, serial: equipment.serial })
        .from(equipmentSensors)
        .innerJoin(equipment, eq(equipment.id, equipmentSensors.equipmentId))
        .where(
          and(
            inArray(equipmentSensors.sensorId, ids),
            sql`${equipmentSensors.equipmentId} <> ${equipmentId}`,
          ),
        )
    : [];
  if (taken[0]) {
    const sensor = found.find((f) => f.id === taken[0]!.sensorId)!;
    throw new AppError('EQUIPMENT_SENSOR_TAKEN', {
      sensor: `${sensor.serial}-${sensor.channel} ${sensor.name}`,
      equipment: `${taken[0].serial} ${taken[0].name}`,
    });
  }
  await tx.delete(equipmentSensors).where(eq(equipmentSensors.equipmentId, equipmentId));
  if (ids.length)
    await tx
      .insert(equipmentSensors)
      .values(ids.map((sensorId) => ({ sensorId, equipmentId, companyId: auth.companyId! })));
}

/**
 * Creates or changes equipment. The serial is the type's code and the 4-digit suffix, unique in
 * the company; disposed equipment is never changed again; values are checked against the type.
 */
export async function saveEquipment(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: SaveEquipmentRequest,
  files: Files,
): Promise<{ id: string; serial: string }> {
  const type = await typeOf(db, actor.companyId, input.typeId);
  const before = input.id ? await equipmentOf(db, auth, input.id) : null;
  if (before?.useState === EquipmentUseState.Disposed) throw new AppError('EQUIPMENT_DISPOSED');
  const attributes = await acceptValues(
    type.attributes,
    input.attributes ?? {},
    before?.attributes ?? {},
    files,
  );
  const departmentId =
    input.departmentId !== undefined && input.departmentId !== ''
      ? await assertDepartmentInScope(db, auth, input.departmentId)
      : (before?.departmentId ?? auth.departmentId);
  const serial = `${type.code}${input.serialSuffix}`;
  return db.transaction(async (tx) => {
    const current = before ? await equipmentOf(tx, auth, input.id!, true) : null;
    if (current?.useState === EquipmentUseState.Disposed) throw new AppError('EQUIPMENT_DISPOSED');
    const [taken] = await tx
      .select({ id: equipment.id })
      .from(equipment)
      .where(
        and(
          eq(equipment.companyId, actor.companyId),
          eq(equipment.serial, serial),
          current ? sql`${equipment.id} <> ${current.id}` : undefined,
        ),
      );
    if (taken) throw new AppError('SERIAL_UNAVAILABLE');
    const values = {
      typeId: type.id,
      serial,
      serialSuffix: input.serialSuffix,
      name: input.name,
      departmentId,
      groupId: await groupOf(tx, actor.companyId, input.groupId, current?.groupId ?? null),
      address: input.address ?? current?.address ?? '',
      region: input.region ?? current?.region ?? '',
      remarks: input.remarks ?? current?.remarks ?? '',
      useState: input.useState ?? current?.useState ?? EquipmentUseState.InUse,
      attributes,
      excursion: input.excursion === undefined ? (current?.excursion ?? null) : input.excursion,
    };
    const [row] = current
      ? await tx.update(equipment).set(values).where(eq(equipment.id, current.id)).returning()
      : await tx
          .insert(equipment)
          .values({ ...values, companyId: actor.companyId })
          .returning();
    if (input.sensorIds) await bindSensors(tx, auth, row!.id, input.sensorIds);
    await recordAudit(tx, actor, {
      action: 'equipment.save',
      targetType: 'equipment',
      targetId: row!.id,
      before: current ?? undefined,
      after: { ...row!, sensorIds: input.sensorIds },
    });
    return { id: idToWire(row!.id), serial };
  });
}

const sensorCount = sql<number>`(SELECT count(*) FROM ${equipmentSensors} es WHERE es.equipment_id = ${equipment.id})`;
const nextCalibration = sql<
  Date | string | null
>`(SELECT c.next_due_at FROM device_calibrations c WHERE c.equipment_id = ${equipment.id} ORDER BY c.calibrated_at DESC, c.id DESC LIMIT 1)`;

export function itemQuery(db: Queryable) {
  return db
    .select({
      e: equipment,
      typeName: equipmentTypes.name,
      typeCode: equipmentTypes.code,
      typeAttributes: equipmentTypes.attributes,
      departmentName: departments.name,
      groupName: deviceGroups.name,
      sensorCount,
      nextCalibration,
    })
    .from(equipment)
    .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipment.typeId))
    .leftJoin(departments, eq(departments.id, equipment.departmentId))
    .leftJoin(deviceGroups, eq(deviceGroups.id, equipment.groupId));
}

type ItemRow = Awaited<ReturnType<ReturnType<typeof itemQuery>['where']>>[number];

export function presentItem(r: ItemRow): EquipmentItem {
  const e = r.e;
  return {
    id: idToWire(e.id),
    typeId: idToWire(e.typeId),
    typeName: r.typeName,
    typeCode: r.typeCode,
    serial: e.serial,
    serialSuffix: e.serialSuffix,
    name: e.name,
    departmentId: e.departmentId === null ? null : idToWire(e.departmentId),
    departmentName: r.departmentName ?? '',
    groupId: e.groupId === null ? null : idToWire(e.groupId),
    groupName: r.groupName ?? '',
    address: e.address,
    region: e.region,
    remarks: e.remarks,
    useState: e.useState,
    sensorCount: Number(r.sensorCount),
    attributeIssueCount: r.typeAttributes.filter((a) => !valuesFit([a], e.attributes)).length,
    nextCalibrationTime: r.nextCalibration === null ? null : new Date(r.nextCalibration).getTime(),
    createTime: e.createdAt.getTime(),
  };
}

/** The list's filters (also the export's). */
export function equipmentWhere(auth: Auth, query: Omit<PageEquipmentRequest, 'pageNum' | 'pageSize'>) {
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
  const department = idFromWire(query.departmentId);
  return and(
    equipmentInScope(auth),
    query.typeId ? eq(equipment.typeId, idFromWire(query.typeId) ?? -1) : undefined,
    query.useState ? eq(equipment.useState, query.useState) : undefined,
    department
      ? sql`${equipment.departmentId} IN (SELECT d.id FROM ${departments} d JOIN ${departments} top ON top.id = ${department} AND top.company_id = ${auth.companyId} WHERE d.path LIKE top.path || '%')`
      : undefined,
    keyword ? or(ilike(equipment.name, keyword), ilike(equipment.serial, keyword)) : undefined,
  );
}

/** A list row as one JSON value: the equipment, and its type, department and group names beside it. */
const listRow = sql`json_build_object(
  'e', ${jsonRowOf(equipment, 'equipment')},
  'typeName', (select t.name from ${equipmentTypes} t where t.id = ${equipment.typeId}),
  'typeCode', (select t.code from ${equipmentTypes} t where t.id = ${equipment.typeId}),
  'typeAttributes', (select t.attributes from ${equipmentTypes} t where t.id = ${equipment.typeId}),
  'departmentName', (select d.name from ${departments} d where d.id = ${equipment.departmentId}),
  'groupName', (select g.name from ${deviceGroups} g where g.id = ${equipment.groupId}),
  'sensorCount', ${sensorCount},
  'nextCalibration', ${nextCalibration})`;

type RawListRow = Omit<ItemRow, 'e'> & { e: Record<string, unknown> };

/** `/api/equipment/pageEquipment`: one statement (db/page-query.ts), newest first. */
export async function pageEquipment(
  db: Db,
  auth: Auth,
  query: PageEquipmentRequest,
): Promise<Page<EquipmentItem>> {
  return pageOf(
    db,
    {
      row: listRow,
      from: equipment,
      where: equipmentWhere(auth, query),
      orderBy: sql`${equipment.createdAt} desc, ${equipment.id} desc`,
    },
    query,
    (raw: RawListRow) => presentItem({ ...raw, e: decodeJsonRow(equipment, raw.e) }),
  );
}

const sensorView = {
  id: sensors.id,
  deviceId: devices.id,
  deviceSerial: devices.serial,
  deviceName: devices.name,
  channel: sensors.channel,
  name: sensors.name,
  unit: sensors.unit,
  value: sensors.value,
  updateTime: sensors.updateTime,
};

function presentSensor(s: {
  id: number;
  deviceId: number;
  deviceSerial: string;
  deviceName: string;
  channel: number;
  name: string;
  unit: string;
  value: number | null;
  updateTime: Date | null;
}) {
  return {
    ...s,
    id: idToWire(s.id),
    deviceId: idToWire(s.deviceId),
    updateTime: s.updateTime ? s.updateTime.getTime() : null,
  };
}

export async function equipmentDetail(
  db: Db,
  auth: Auth,
  wireId: string,
  language: WireLanguage,
): Promise<EquipmentDetail> {
  const row = await equipmentOf(db, auth, wireId);
  const [item] = await itemQuery(db).where(eq(equipment.id, row.id));
  const type = await typeOf(db, auth.companyId, idToWire(row.typeId));
  const [n] = await db.select({ n: count() }).from(equipment).where(eq(equipment.typeId, type.id));
  const bound = await db
    .select(sensorView)
    .from(equipmentSensors)
    .innerJoin(sensors, eq(sensors.id, equipmentSensors.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(eq(equipmentSensors.equipmentId, row.id))
    .orderBy(devices.serial, sensors.channel);
  return {
    ...presentItem(item!),
    attributes: currentValues(type.attributes, row.attributes),
    attributeIssues: attributeIssues(type.attributes, row.attributes, language),
    type: presentType(type, Number(n?.n ?? 0)),
    excursion: row.excursion ?? null,
    sensors: bound.map(presentSensor),
    alarmSuppressed: (await alarmSuppressedNow(db, [row.id])).has(row.id),
  };
}

/** Sensors of the monitors the caller may change, with the equipment each measures (if any). */
export async function sensorOptions(db: Db, auth: Auth): Promise<SensorOption[]> {
  const rows = await db
    .select({ ...sensorView, equipmentId: equipment.id, equipmentName: equipment.name })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .leftJoin(equipmentSensors, eq(equipmentSensors.sensorId, sensors.id))
    .leftJoin(equipment, eq(equipment.id, equipmentSensors.equipmentId))
    .where(editableDevices(auth))
    .orderBy(devices.serial, sensors.channel)
    .limit(2000);
  return rows.map((r) => ({
    ...presentSensor(r),
    equipmentId: r.equipmentId === null ? null : idToWire(r.equipmentId),
    equipmentName: r.equipmentName ?? '',
  }));
}
