import {
  type MonitoringDevicePayRequest,
  type MonitoringDeviceRecoveryRequest,
  type OrderKind,
  OrderStatus,
  type OrderView,
  type Page,
  type PageOrdersRequest,
  type PriceListView,
  recoveryMonths,
} from '@coldchain/contract';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { selectedDevices } from '../devices/devices-batch.service';
import { users } from '../users/users.table';
import { recordOrderDevices } from './order-devices';
import { type OrderLine, orders } from './orders.table';
import { centsToRm, type PriceConfig, type TierPrices, tierOf } from './prices';

type OrderRow = typeof orders.$inferSelect;

export function priceList(prices: PriceConfig): PriceListView {
  const rm = (p: TierPrices) =>
    Object.fromEntries(Object.entries(p).map(([tier, cents]) => [tier, centsToRm(cents)])) as Record<
      keyof TierPrices,
      number
    >;
  return {
    currency: 'RM',
    renewal: rm(prices.renewal),
    recovery: rm(prices.recovery),
    recoveryMonthDays: 30,
  };
}

/** `CC` + the UTC day it was placed + the id, e.g. CC20261121000042. */
export function orderNumber(row: Pick<OrderRow, 'id' | 'createdAt'>): string {
  const day = row.createdAt.toISOString().slice(0, 10).replaceAll('-', '');
  return `CC${day}${String(row.id).padStart(6, '0')}`;
}

export function toOrderView(row: OrderRow, createdByName = ''): OrderView {
  return {
    id: idToWire(row.id),
    orderNo: orderNumber(row),
    kind: row.kind as OrderKind,
    status: row.status as OrderStatus,
    months: row.months,
    startTime: row.periodStart?.getTime() ?? null,
    endTime: row.periodEnd?.getTime() ?? null,
    amount: centsToRm(row.amountCents),
    currency: 'RM',
    paymentMethod: 'approval',
    invoiceStatus: 0,
    createdBy: row.createdBy === null ? null : idToWire(row.createdBy),
    createdByName,
    createTime: row.createdAt.getTime(),
    decideTime: row.decidedAt?.getTime() ?? null,
    lines: row.lines.map((l) => ({
      deviceId: idToWire(l.deviceId),
      serial: l.serial,
      name: l.name,
      version: l.version,
      unitPrice: centsToRm(l.unitPriceCents),
      amount: centsToRm(l.amountCents),
    })),
  };
}

/**
 * The selected devices, every one of which the caller must see (`scope` is visibleDevices);
 * one foreign or unknown id refuses the whole order.
 */
/** The selection (all or nothing, devices-batch.service.ts), in id order as orders store it. */
async function selectedDevicesById(db: Db, scope: SQL, wireIds: string[]) {
  return (await selectedDevices(db, scope, wireIds)).sort((x, y) => x.id - y.id);
}

async function placeOrder(
  db: Db,
  actor: Actor,
  values: Omit<typeof orders.$inferInsert, 'companyId' | 'createdBy' | 'status'>,
): Promise<OrderView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({ ...values, companyId: actor.companyId, createdBy: actor.userId, status: OrderStatus.Pending })
      .returning();
    await recordOrderDevices(tx, row!);
    await recordAudit(tx, actor, {
      action: `order.${row!.kind}`,
      targetType: 'order',
      targetId: row!.id,
      after: { orderNo: orderNumber(row!), amountCents: row!.amountCents, months: row!.months },
    });
    return toOrderView(row!);
  });
}

/** A renewal: each device costs its tier's monthly price times the months (spec section 5). */
export async function createRenewalOrder(
  db: Db,
  actor: Actor,
  scope: SQL,
  prices: PriceConfig,
  input: MonitoringDevicePayRequest,
): Promise<OrderView> {
  const rows = await selectedDevicesById(db, scope, input.deviceIds);
  const lines: OrderLine[] = rows.map((d) => {
    const unitPriceCents = prices.renewal[tierOf(d.version)];
    return {
      deviceId: d.id,
      serial: d.serial,
      name: d.name,
      version: d.version,
      unitPriceCents,
      amountCents: unitPriceCents * input.months,
    };
  });
  return placeOrder(db, actor, {
    kind: 'renewal',
    lines,
    months: input.months,
    amountCents: lines.reduce((sum, l) => sum + l.amountCents, 0),
  });
}

/** A data recovery: per 30-day month of the period, part months whole (spec section 9). */
export async function createRecoveryOrder(
  db: Db,
  actor: Actor,
  scope: SQL,
  prices: PriceConfig,
  input: MonitoringDeviceRecoveryRequest,
  now = Date.now(),
): Promise<OrderView> {
  if (input.endTime > now) throw new AppError('RECOVERY_PERIOD_IN_FUTURE');
  const rows = await selectedDevicesById(db, scope, input.deviceIds);
  const months = recoveryMonths(input.startTime, input.endTime);
  const lines: OrderLine[] = rows.map((d) => {
    const unitPriceCents = prices.recovery[tierOf(d.version)];
    return {
      deviceId: d.id,
      serial: d.serial,
      name: d.name,
      version: d.version,
      unitPriceCents,
      amountCents: unitPriceCents * months,
    };
  });
  return placeOrder(db, actor, {
    kind: 'recovery',
    lines,
    months,
    periodStart: new Date(input.startTime),
    periodEnd: new Date(input.endTime),
    amountCents: lines.reduce((sum, l) => sum + l.amountCents, 0),
  });
}

/**
 * Orders the caller may see: members who see the whole company see all its orders; members of a
 * department see the orders they placed themselves.
 */
export function visibleOrders(auth: Auth): SQL {
  const company = eq(orders.companyId, auth.companyId ?? -1);
  if (auth.scopePath === null) return company;
  return and(company, eq(orders.createdBy, auth.userId))!;
}

export async function pageOrders(db: Db, auth: Auth, input: PageOrdersRequest): Promise<Page<OrderView>> {
  const where = and(
    visibleOrders(auth),
    input.status ? eq(orders.status, input.status) : undefined,
    input.kind ? eq(orders.kind, input.kind) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  const rows = await db
    .select({ order: orders, name: users.name })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.createdBy))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize);
  return {
    list: rows.map((r) => toOrderView(r.order, r.name ?? '')),
    total: total?.n ?? 0,
    pageNum: input.pageNum,
    pageSize: input.pageSize,
  };
}

/** Only a pending order can be cancelled; an approved one has already extended service. */
export async function cancelOrder(db: Db, actor: Actor, auth: Auth, wireId: string): Promise<OrderView> {
  const id = idFromWire(wireId);
  if (!id) throw new AppError('ORDER_NOT_FOUND');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), visibleOrders(auth)))
      .for('update');
    if (!row) throw new AppError('ORDER_NOT_FOUND');
    if (row.status !== OrderStatus.Pending) throw new AppError('ORDER_NOT_PENDING');
    const [updated] = await tx
      .update(orders)
      .set({ status: OrderStatus.Cancelled, decidedAt: new Date() })
      .where(eq(orders.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: 'order.cancel',
      targetType: 'order',
      targetId: id,
      before: { status: row.status },
      after: { status: OrderStatus.Cancelled },
    });
    return toOrderView(updated!);
  });
}
