import { OrderStatus, type OrderView } from '@coldchain/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudit } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { recordLapseAtRenewal } from '../service-periods/lapse-recording';
import { toOrderView } from './orders.service';
import { orders } from './orders.table';
import { type DecisionDetails, settleDecision } from './payments-settle';

/**
 * The decision on an order: the platform operator's (operator console, `npm run admin -- orders
 * ...`), who checks a bank transfer and approves or rejects, or the online payment's webhook
 * (webhook.service.ts), which approves a paid checkout. Both go through `decide`.
 */

export class OrderDecisionError extends Error {}

export async function listOrders(db: Db, status?: number): Promise<(OrderView & { companyId: number })[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(status ? eq(orders.status, status) : undefined)
    .orderBy(asc(orders.id));
  return rows.map((r) => ({ ...toOrderView(r), companyId: r.companyId }));
}

/**
 * Approves a pending order in one transaction. A renewal extends each device's expiry by the
 * months, counted from the later of now and its current expiry, so a lapsed device gets whole
 * months from today and a running one loses nothing; a lapsed device's lapse (expiry to now) is
 * recorded, since its readings of that time stay hidden until recovered. A recovery is recorded as
 * approved with its period, which un-hides those readings (docs/decisions.md, "Data recovery").
 */
export async function approveOrder(
  db: Db,
  id: number,
  now = new Date(),
  details: DecisionDetails = {},
): Promise<OrderView> {
  return decide(db, id, OrderStatus.Approved, now, details);
}

export async function rejectOrder(
  db: Db,
  id: number,
  now = new Date(),
  details: DecisionDetails = {},
): Promise<OrderView> {
  return decide(db, id, OrderStatus.Rejected, now, details);
}

async function decide(
  db: Db,
  id: number,
  status: OrderStatus,
  now: Date,
  details: DecisionDetails,
): Promise<OrderView> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
    if (!row) throw new OrderDecisionError(`Order ${id} does not exist.`);
    if (row.status !== OrderStatus.Pending) {
      throw new OrderDecisionError(`Order ${id} is not pending (status ${row.status}); nothing changed.`);
    }
    const actor = { companyId: row.companyId, userId: details.userId ?? null, ip: details.ip ?? '' };
    const extended: { deviceId: number; before: number; after: number }[] = [];
    if (status === OrderStatus.Approved && row.kind === 'renewal') {
      for (const line of row.lines) {
        // A device removed since the order was placed is skipped; the others are still renewed.
        const [device] = await tx
          .select({ expireTime: devices.expireTime })
          .from(devices)
          .where(and(eq(devices.id, line.deviceId), eq(devices.companyId, row.companyId)))
          .for('update');
        if (!device) continue;
        await recordLapseAtRenewal(
          tx,
          { id: line.deviceId, companyId: row.companyId, expiredAt: device.expireTime },
          now,
        );
        const [updated] = await tx
          .update(devices)
          .set({
            expireTime: sql`greatest(${now.toISOString()}::timestamptz, ${devices.expireTime}) + make_interval(months => ${row.months}::int)`,
          })
          .where(eq(devices.id, line.deviceId))
          .returning({ expireTime: devices.expireTime });
        extended.push({
          deviceId: line.deviceId,
          before: device.expireTime.getTime(),
          after: updated!.expireTime.getTime(),
        });
      }
    }
    const [updated] = await tx
      .update(orders)
      .set({ status, decidedAt: now })
      .where(eq(orders.id, id))
      .returning();
    // Credits a paid top-up and records how it was paid or why it was rejected (payments-settle.ts).
    await settleDecision(tx, row, status, now, details);
    await recordAudit(tx, actor, {
      action: status === OrderStatus.Approved ? 'order.approve' : 'order.reject',
      targetType: 'order',
      targetId: id,
      before: { status: row.status },
      after: {
        status,
        extended,
        ...(details.reason ? { reason: details.reason } : {}),
        ...(details.paidOnline ? { paidOnline: true } : {}),
      },
    });
    return toOrderView(updated!);
  });
}
