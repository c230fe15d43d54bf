import type { AddDeviceRequest, DeviceView } from '@coldchain/contract';
import { DeviceState } from '@coldchain/contract';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { builtOnce, UNNAMED } from '../../db/built-once';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { hashToken, newToken } from '../../lib/tokens';
import { addDefaultAbnormalSetting } from '../alarms/alarm-default-settings';
import { type Actor, recordAudit } from '../audit/audit.service';
import { rootDepartmentId } from '../groups/groups.service';
import { deviceInventory } from '../inventory/inventory.table';
import { wholeCompanyOf } from '../org/access';
import { channelState } from './channel-state';
import { devices, sensors } from './devices.table';

/** A newly bound device includes 12 months of service; renewal extends it (monitoringDevicePay). */
const INCLUDED_SERVICE_MONTHS = 12;

type DeviceRow = typeof devices.$inferSelect;
type SensorRow = typeof sensors.$inferSelect;

/** `alarming`: sensors with an excursion still open (alarmingSensorIds), for the channel state. */
export function presentDevice(
  device: DeviceRow,
  deviceSensors: SensorRow[],
  alarming: ReadonlySet<number> = new Set(),
): DeviceView {
  return {
    id: idToWire(device.id),
    serial: device.serial,
    name: device.name,
    model: device.model,
    version: device.version,
    state: device.state,
    departmentId: device.departmentId === null ? null : idToWire(device.departmentId),
    groupId: device.groupId === null ? null : idToWire(device.groupId),
    expireTime: device.expireTime.getTime(),
    lastSeenTime: device.lastSeenAt?.getTime() ?? null,
    uploadInterval: device.uploadIntervalS,
    offlineJudgement: device.offlineJudgement,
    recordInterval: device.recordIntervalS,
    alarmVerifyInterval: device.alarmVerifyIntervalS,
    hostAddress: device.hostAddress,
    subAddress: device.subAddress,
    region: device.region,
    address: device.address,
    lng: device.lng,
    lat: device.lat,
    battery: device.battery,
    power: device.power,
    mode: device.mode,
    remark: device.remark,
    sensors: deviceSensors
      .sort((a, b) => a.channel - b.channel)
      .map((s) => ({
        id: idToWire(s.id),
        channel: s.channel,
        name: s.name,
        type: s.type,
        unit: s.unit,
        rangeMin: s.rangeMin,
        rangeMax: s.rangeMax,
        value: s.value,
        updateTime: s.updateTime?.getTime() ?? null,
        remark: s.remark,
        enabled: s.enabled,
        state: channelState(device.state, s, alarming.has(s.id)),
      })),
  };
}

/** Invalidation hook for caches of device credentials and channels (the ingest cache listens). */
export type DeviceChangeListener = (serial: string) => void;
const listeners = new Set<DeviceChangeListener>();
export function onDeviceChanged(listener: DeviceChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function deviceChanged(serial: string) {
  for (const listener of listeners) listener(serial);
}

/**
 * Binds a spare serial from the inventory to the company, creates one sensor per channel and
 * issues the device key, which is returned once and stored only as a hash.
 */
export async function addDevice(db: Db, actor: Actor, input: AddDeviceRequest) {
  const { companyId } = actor;
  const serial = input.serial.toUpperCase();
  const deviceKey = newToken();
  const id = await db.transaction(async (tx) => {
    const [stock] = await tx
      .select()
      .from(deviceInventory)
      .where(eq(deviceInventory.serial, serial))
      .limit(1);
    if (!stock) throw new AppError('SERIAL_UNAVAILABLE');
    const expireTime = new Date();
    expireTime.setUTCMonth(expireTime.getUTCMonth() + INCLUDED_SERVICE_MONTHS);
    const [device] = await tx
      .insert(devices)
      .values({
        companyId,
        serial,
        name: input.name,
        model: stock.model,
        version: stock.version,
        // No department given: the top one, so that every device is held by a department.
        departmentId: idFromWire(input.departmentId) ?? (await rootDepartmentId(tx, companyId)),
        groupId: idFromWire(input.groupId),
        keyHash: hashToken(deviceKey),
        expireTime,
        state: DeviceState.Offline,
      })
      .onConflictDoNothing()
      .returning({ id: devices.id });
    if (!device) throw new AppError('SERIAL_UNAVAILABLE');
    await tx.insert(sensors).values(
      stock.channels.map((c) => ({
        companyId,
        deviceId: device.id,
        channel: c.ch,
        name: `${c.type === 'humidity' ? 'Humidity' : 'Temperature'} ${c.ch}`,
        type: c.type,
        unit: c.unit,
        rangeMin: c.min,
        rangeMax: c.max,
      })),
    );
    // A reading beyond the sensor's own range is a device abnormal alarm from the first day.
    await addDefaultAbnormalSetting(tx, { companyId, deviceId: device.id }, actor.userId ?? null);
    await recordAudit(tx, actor, {
      action: 'device.add',
      targetType: 'device',
      targetId: device.id,
      after: { serial, name: input.name, model: stock.model, version: stock.version },
    });
    return device.id;
  });
  deviceChanged(serial);
  return { id: idToWire(id), deviceKey };
}

/** A device of a company by id, its SQL built once (db/built-once.ts). */
const deviceOfCompany = builtOnce((db) =>
  db
    .select()
    .from(devices)
    .where(and(eq(devices.companyId, sql.placeholder('companyId')), eq(devices.id, sql.placeholder('id'))))
    .limit(1)
    .prepare(UNNAMED),
);

/**
 * The device `wireId` if `scope` (a condition on `devices`, see org/access.ts) admits it. A scope
 * of the whole company (administrators, members of the root department: most calls) is answered
 * by a statement built once; the others vary with the caller's department, and are built at each
 * call.
 */
export async function findDevice(db: Queryable, scope: SQL, wireId: string): Promise<DeviceRow> {
  const id = idFromWire(wireId);
  const companyId = wholeCompanyOf(scope);
  const [device] = !id
    ? []
    : companyId !== undefined
      ? await deviceOfCompany(db).execute({ companyId, id })
      : await db
          .select()
          .from(devices)
          .where(and(scope, eq(devices.id, id)))
          .limit(1);
  if (!device) throw new AppError('DEVICE_NOT_FOUND');
  return device;
}

/** Issues a new key; the old one stops working at once (connected sessions are dropped). */
export async function resetDeviceKey(db: Db, actor: Actor, scope: SQL, wireId: string) {
  const device = await findDevice(db, scope, wireId);
  const deviceKey = newToken();
  await db.transaction(async (tx) => {
    await tx
      .update(devices)
      .set({ keyHash: hashToken(deviceKey) })
      .where(eq(devices.id, device.id));
    // The key itself is never written anywhere, the audit trail included.
    await recordAudit(tx, actor, { action: 'device.resetKey', targetType: 'device', targetId: device.id });
  });
  deviceChanged(device.serial);
  return { deviceKey };
}

/** Device count per state 1-6, every state present (the home page and the state tabs). */
export async function countDevicesByState(db: Db, scope: SQL): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: devices.state, n: count() })
    .from(devices)
    .where(scope)
    .groupBy(devices.state);
  const counts: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 };
  for (const row of rows) counts[String(row.state)] = Number(row.n);
  return counts;
}

/** The settings an edit may change, as the audit trail records them. */
/** The columns a device edit writes, as `editableOf` reads them. */
export type EditableColumns = Pick<
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

export function editableOf(d: EditableColumns) {
  return {
    name: d.name,
    departmentId: d.departmentId,
    groupId: d.groupId,
    recordInterval: d.recordIntervalS,
    uploadInterval: d.uploadIntervalS,
    alarmVerifyInterval: d.alarmVerifyIntervalS,
    offlineJudgement: d.offlineJudgement,
    hostAddress: d.hostAddress,
    subAddress: d.subAddress,
    remark: d.remark,
    region: d.region,
    address: d.address,
  };
}

export async function setDeviceRemark(
  db: Db,
  actor: Actor,
  scope: SQL,
  wireId: string,
  remark: string,
): Promise<void> {
  const device = await findDevice(db, scope, wireId);
  await db.transaction(async (tx) => {
    await tx.update(devices).set({ remark }).where(eq(devices.id, device.id));
    await recordAudit(tx, actor, {
      action: 'device.setRemark',
      targetType: 'device',
      targetId: device.id,
      before: { remark: device.remark },
      after: { remark },
    });
  });
}
