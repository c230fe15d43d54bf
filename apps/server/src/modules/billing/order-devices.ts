import { OrderStatus } from '@coldchain/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { orderDevices, orders } from './orders.table';

type OrderRow = typeof orders.$inferSelect;

/** One device's recovered period: the period of an approved recovery order naming it. */
export interface RecoveryPeriod {
  deviceId: number;
  periodStart: Date;
  periodEnd: Date;
}

/** Indexes the devices an order names; called in the transaction that inserts the order. */
export async function recordOrderDevices(
  tx: Queryable,
  order: Pick<OrderRow, 'id' | 'companyId' | 'lines'>,
): Promise<void> {
  const deviceIds = [...new Set(order.lines.map((l) => l.deviceId))];
  if (deviceIds.length === 0) return;
  await tx
    .insert(orderDevices)
    .values(deviceIds.map((deviceId) => ({ orderId: order.id, deviceId, companyId: order.companyId })));
}

/**
 * The periods of approved recovery orders naming any of the devices, one row per (order, device),
 * in no particular order. Pending, rejected and cancelled orders recover nothing, and a renewal
 * has no period (docs/decisions.md, "Data recovery").
 */
export async function approvedRecoveryPeriods(db: Queryable, deviceIds: number[]): Promise<RecoveryPeriod[]> {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .select({
      deviceId: orderDevices.deviceId,
      periodStart: orders.periodStart,
      periodEnd: orders.periodEnd,
    })
    .from(orderDevices)
    .innerJoin(orders, eq(orders.id, orderDevices.orderId))
    .where(
      and(
        inArray(orderDevices.deviceId, deviceIds),
        eq(orders.kind, 'recovery'),
        eq(orders.status, OrderStatus.Approved),
        isNotNull(orders.periodStart),
        isNotNull(orders.periodEnd),
      ),
    );
  return rows.flatMap(({ deviceId, periodStart, periodEnd }) =>
    periodStart && periodEnd ? [{ deviceId, periodStart, periodEnd }] : [],
  );
}
