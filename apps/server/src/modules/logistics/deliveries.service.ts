import {
  type DeliveryListItem,
  DeliveryState,
  type Page,
  type PageDeliveriesRequest,
  type SaveDeliveryRequest,
} from '@coldchain/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable, Tx } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { editableDevices } from '../org/access';
import { countAddressUsageWith } from './address-usage';
import { logisticsAddresses } from './addresses.table';
import { type AddressCopy, logisticsDeliveryDevices, logisticsDeliveries as t } from './deliveries.table';
import { endShipmentAlarms, startShipmentAlarms } from './delivery-alarms';

export type DeliveryRow = typeof t.$inferSelect;

// Deleting an address a delivery order names is refused (address-usage.ts).
countAddressUsageWith(async (db, companyId, addressId) => {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(t)
    .where(
      and(
        eq(t.companyId, companyId),
        sql`(${t.senderAddressId} = ${addressId} or ${t.receiverAddressId} = ${addressId})`,
      ),
    );
  return row?.n ?? 0;
});

/** The sender company's order, or "does not exist" (another company's id included). */
export async function ownDelivery(db: Queryable, companyId: number, wireId: string, forUpdate = false) {
  const id = idFromWire(wireId);
  const query = db
    .select()
    .from(t)
    .where(and(eq(t.id, id ?? 0), eq(t.companyId, companyId)));
  const [row] = id ? await (forUpdate ? query.for('update') : query) : [];
  if (!row) throw new AppError('LOGISTICS_DELIVERY_NOT_FOUND');
  return row;
}

/** Refuses a step the order's state does not allow, naming the state it is in. */
export function requireState(row: DeliveryRow, allowed: readonly number[]) {
  if (!allowed.includes(row.state))
    throw new AppError(`LOGISTICS_DELIVERY_STATE_${row.state as 1 | 2 | 3 | 4 | 5 | 6}`);
}

async function addressCopy(tx: Queryable, companyId: number, wireId: string) {
  const [a] = await tx
    .select()
    .from(logisticsAddresses)
    .where(
      and(eq(logisticsAddresses.id, idFromWire(wireId) ?? 0), eq(logisticsAddresses.companyId, companyId)),
    );
  if (!a) throw new AppError('LOGISTICS_ADDRESS_NOT_FOUND');
  const copy: AddressCopy = {
    name: a.name,
    contact: a.contact,
    phone: a.phone,
    region: a.region,
    address: a.address,
    lng: a.lng,
    lat: a.lat,
  };
  return { id: a.id, copy, receiverCompanyId: a.receiverCompanyId };
}

/** What the operation log keeps of an order. */
function audited(row: DeliveryRow) {
  return {
    orderNo: row.orderNo,
    state: row.state,
    sender: row.sender.name,
    receiver: row.receiver.name,
    goods: row.goods,
    tempMin: row.tempMin,
    tempMax: row.tempMax,
    humidityMin: row.humidityMin,
    humidityMax: row.humidityMax,
    carrier: row.carrier,
    vehicle: row.vehicle,
    remarks: row.remarks,
  };
}

const dayStamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

/** Unique-index violation of "a monitor on one active shipment", whatever the driver calls it. */
function isBusyMonitor(error: unknown): boolean {
  const text = `${(error as { message?: string })?.message ?? ''} ${(error as { cause?: { message?: string } })?.cause?.message ?? ''}`;
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505' || text.includes('logistics_delivery_devices_active_idx');
}

async function serialsBusy(db: Db, deviceIds: number[], exceptDelivery: number | null): Promise<string[]> {
  const rows = await db
    .select({ serial: devices.serial })
    .from(logisticsDeliveryDevices)
    .innerJoin(devices, eq(devices.id, logisticsDeliveryDevices.deviceId))
    .where(
      and(
        inArray(logisticsDeliveryDevices.deviceId, deviceIds),
        eq(logisticsDeliveryDevices.active, true),
        exceptDelivery ? sql`${logisticsDeliveryDevices.deliveryId} <> ${exceptDelivery}` : undefined,
      ),
    );
  return rows.map((r) => r.serial);
}

/**
 * `/api/logistics/saveDelivery`: a new order (state created), or an edit of a created one. Its
 * monitors must be ones the caller may change; a monitor already on another created or
 * in-transit order is refused, by the database's partial unique index so that two saves at once
 * cannot both take it.
 */
export async function saveDelivery(
  db: Db,
  auth: Auth,
  actor: Actor,
  input: SaveDeliveryRequest,
): Promise<{ id: string; orderNo: string }> {
  const deviceIds = [...new Set(input.deviceIds.map((d) => idFromWire(d) ?? 0))];
  const allowed = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(inArray(devices.id, deviceIds), editableDevices(auth)));
  if (allowed.length !== deviceIds.length) throw new AppError('DEVICE_NOT_FOUND');
  try {
    return await db.transaction(async (tx) => {
      const sender = await addressCopy(tx, actor.companyId, input.senderAddressId);
      const receiver = await addressCopy(tx, actor.companyId, input.receiverAddressId);
      const fields = {
        senderAddressId: sender.id,
        receiverAddressId: receiver.id,
        sender: sender.copy,
        receiver: receiver.copy,
        receiverCompanyId: receiver.receiverCompanyId,
        goods: input.goods,
        tempMin: input.tempMin,
        tempMax: input.tempMax,
        humidityMin: input.humidityMin ?? null,
        humidityMax: input.humidityMax ?? null,
        carrier: input.carrier ?? '',
        vehicle: input.vehicle ?? '',
        plannedDeparture: input.plannedDeparture ? new Date(input.plannedDeparture) : null,
        plannedArrival: input.plannedArrival ? new Date(input.plannedArrival) : null,
        remarks: input.remarks ?? '',
      };
      let before: DeliveryRow | null = null;
      let row: DeliveryRow;
      if (input.id) {
        before = await ownDelivery(tx, actor.companyId, input.id, true);
        requireState(before, [DeliveryState.Created]);
        [row] = (await tx
          .update(t)
          .set({ ...fields, updatedAt: new Date() })
          .where(eq(t.id, before.id))
          .returning()) as [DeliveryRow];
        await tx.delete(logisticsDeliveryDevices).where(eq(logisticsDeliveryDevices.deliveryId, row.id));
      } else {
        const [inserted] = await tx
          .insert(t)
          .values({ ...fields, companyId: actor.companyId, orderNo: '', createdBy: actor.userId })
          .returning();
        [row] = (await tx
          .update(t)
          .set({ orderNo: `DO${dayStamp(inserted!.createdAt)}${String(inserted!.id).padStart(6, '0')}` })
          .where(eq(t.id, inserted!.id))
          .returning()) as [DeliveryRow];
      }
      await tx
        .insert(logisticsDeliveryDevices)
        .values(deviceIds.map((deviceId) => ({ deliveryId: row.id, deviceId, companyId: actor.companyId })));
      await recordAudit(tx, actor, {
        action: before ? 'logisticsDelivery.edit' : 'logisticsDelivery.add',
        targetType: 'logisticsDelivery',
        targetId: String(row.id),
        ...(before ? { before: audited(before) } : {}),
        after: { ...audited(row), deviceIds },
      });
      return { id: idToWire(row.id), orderNo: row.orderNo };
    });
  } catch (error) {
    if (!isBusyMonitor(error)) throw error;
    const busy = await serialsBusy(db, deviceIds, input.id ? (idFromWire(input.id) ?? null) : null);
    throw new AppError('LOGISTICS_DEVICE_BUSY', { serials: busy.join(', ') || '-' });
  }
}

/** One step of the order's life, audited, with what the step does to alarms and monitors. */
async function step(
  db: Db,
  actor: Actor,
  wireId: string,
  from: readonly number[],
  to: DeliveryState,
  action: string,
  effect: (tx: Tx, row: DeliveryRow) => Promise<Partial<DeliveryRow>>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await ownDelivery(tx, actor.companyId, wireId, true);
    requireState(before, from);
    const changes = await effect(tx, before);
    const [after] = await tx
      .update(t)
      .set({ ...changes, state: to, updatedAt: new Date() })
      .where(eq(t.id, before.id))
      .returning();
    await recordAudit(tx, actor, {
      action,
      targetType: 'logisticsDelivery',
      targetId: String(before.id),
      before: { state: before.state, departTime: before.departedAt?.getTime() ?? null },
      after: {
        orderNo: after!.orderNo,
        state: after!.state,
        departTime: after!.departedAt?.getTime() ?? null,
        arriveTime: after!.arrivedAt?.getTime() ?? null,
      },
    });
  });
}

const releaseMonitors = (tx: Tx, deliveryId: number) =>
  tx
    .update(logisticsDeliveryDevices)
    .set({ active: false })
    .where(eq(logisticsDeliveryDevices.deliveryId, deliveryId));

/** `/api/logistics/departDelivery`: created -> in transit; the record's window opens now. */
export function departDelivery(db: Db, actor: Actor, wireId: string, now = new Date()) {
  return step(
    db,
    actor,
    wireId,
    [DeliveryState.Created],
    DeliveryState.InTransit,
    'logisticsDelivery.depart',
    async (tx, row) => {
      await startShipmentAlarms(tx, actor, row);
      return { departedAt: now };
    },
  );
}

/** `/api/logistics/arriveDelivery`: in transit -> arrived; the window closes, the monitors are free. */
export function arriveDelivery(db: Db, actor: Actor, wireId: string, now = new Date()) {
  return step(
    db,
    actor,
    wireId,
    [DeliveryState.InTransit],
    DeliveryState.Arrived,
    'logisticsDelivery.arrive',
    async (tx, row) => {
      await endShipmentAlarms(tx, actor, row.id);
      await releaseMonitors(tx, row.id);
      return { arrivedAt: now };
    },
  );
}

/** `/api/logistics/cancelDelivery`: a created or travelling order is called off. */
export function cancelDelivery(db: Db, actor: Actor, wireId: string, now = new Date()) {
  return step(
    db,
    actor,
    wireId,
    [DeliveryState.Created, DeliveryState.InTransit],
    DeliveryState.Cancelled,
    'logisticsDelivery.cancel',
    async (tx, row) => {
      await endShipmentAlarms(tx, actor, row.id);
      await releaseMonitors(tx, row.id);
      // A cancelled trip that had left keeps its window: departure to the cancel.
      return row.state === DeliveryState.InTransit ? { arrivedAt: now } : {};
    },
  );
}

/** One order as a list row, with its sender's company name and its monitors' serials (one statement). */
const listRow = sql`json_build_object(
  'd', ${jsonRowOf(t, 'logistics_deliveries')},
  'company', (select c.name from ${companies} c where c.id = ${t.companyId}),
  'serials', (select coalesce(json_agg(dv.serial order by dv.serial), '[]'::json)
    from ${logisticsDeliveryDevices} ld join ${devices} dv on dv.id = ld.device_id
    where ld.delivery_id = ${t.id}))`;

interface RawListRow {
  d: Record<string, unknown>;
  company: string | null;
  serials: string[];
}

const ms = (d: Date | null) => d?.getTime() ?? null;

export function presentListItem(row: DeliveryRow, company: string, serials: string[]): DeliveryListItem {
  return {
    id: idToWire(row.id),
    orderNo: row.orderNo,
    state: row.state as DeliveryState,
    sender: row.sender,
    receiver: row.receiver,
    senderCompany: company,
    goods: row.goods,
    tempMin: row.tempMin,
    tempMax: row.tempMax,
    serials,
    carrier: row.carrier,
    vehicle: row.vehicle,
    plannedDeparture: ms(row.plannedDeparture),
    plannedArrival: ms(row.plannedArrival),
    departTime: ms(row.departedAt),
    arriveTime: ms(row.arrivedAt),
    createTime: row.createdAt.getTime(),
  };
}

const likeOf = (text: string | undefined) => (text ? text.replace(/[\\%_]/g, (c) => `\\${c}`) : null);

function pageDeliveriesWhere(scope: SQL, query: PageDeliveriesRequest): SQL {
  const keyword = likeOf(query.keyword);
  return and(
    scope,
    whenGiven(query.state ?? null, 'smallint', (v) => sql`${t.state} = ${v}`),
    whenGiven(
      keyword,
      'text',
      (v) =>
        sql`(${t.orderNo} ilike '%' || ${v} || '%' or ${t.sender}->>'name' ilike '%' || ${v} || '%' or ${t.receiver}->>'name' ilike '%' || ${v} || '%' or ${t.vehicle} ilike '%' || ${v} || '%')`,
    ),
  )!;
}

function pageWith(db: Db, scope: SQL, query: PageDeliveriesRequest): Promise<Page<DeliveryListItem>> {
  return pageOf(
    db,
    {
      row: listRow,
      from: t,
      where: pageDeliveriesWhere(scope, query),
      orderBy: sql`${t.createdAt} desc, ${t.id} desc`,
    },
    query,
    (raw: RawListRow) => presentListItem(decodeJsonRow(t, raw.d), raw.company ?? '', raw.serials ?? []),
  );
}

/** `/api/logistics/pageDeliveries`: the company's own orders, newest first. */
export function pageDeliveries(db: Db, companyId: number, query: PageDeliveriesRequest) {
  return pageWith(db, eq(t.companyId, companyId), query);
}

/**
 * `/api/logistics/pageReceiving`: orders addressed to the company by other companies (or by
 * itself), once they left: a created order is the sender's plan, not yet the receiver's business.
 */
export function pageReceiving(db: Db, companyId: number, query: PageDeliveriesRequest) {
  return pageWith(db, and(eq(t.receiverCompanyId, companyId), sql`${t.departedAt} is not null`)!, query);
}
