import {
  type OperatorOrderView,
  type OperatorPageOrdersRequest,
  OrderStatus,
  type OrderView,
  type Page,
  type SetDueDateRequest,
} from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import type { OperatorActor } from './invoices-operator.service';
import { approveOrder, OrderDecisionError, rejectOrder } from './order-decisions';
import { orders } from './orders.table';
import { orderPayments } from './payments.table';
import { ORDER_ROW, type OrderRowJson, presentOrderRow } from './payments-order-view';

/** The supplier's order list: pending first (oldest first: who waited longest), then the rest. */
export async function pageAllOrders(
  db: Queryable,
  query: OperatorPageOrdersRequest,
): Promise<Page<OperatorOrderView>> {
  const where = and(
    whenGiven(query.status, 'smallint', (v) => sql`${orders.status} = ${v}`),
    whenGiven(query.kind, 'text', (v) => sql`${orders.kind} = ${v}`),
    whenGiven(
      query.companyName,
      'text',
      (v) =>
        sql`exists (select 1 from ${companies} c where c.id = ${orders.companyId} and strpos(lower(c.name), lower(${v})) > 0)`,
    ),
  );
  const now = Date.now();
  return pageOf(
    db,
    {
      row: ORDER_ROW,
      from: orders,
      where,
      orderBy: sql`(${orders.status} = 1) desc, case when ${orders.status} = 1 then ${orders.id} else -${orders.id} end`,
    },
    query,
    (raw: OrderRowJson) => ({
      ...presentOrderRow(raw, now),
      companyId: idToWire(BigInt(raw.companyId)),
      companyName: raw.companyName ?? '',
    }),
  );
}

/** Approve or reject through order-decisions.ts (renewals extend service, top-ups credit messages). */
export async function decideOrder(
  db: Db,
  actor: OperatorActor,
  wireId: string,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<OrderView> {
  const id = idFromWire(wireId) ?? 0;
  try {
    return decision.approve
      ? await approveOrder(db, id, new Date(), { userId: actor.userId, ip: actor.ip })
      : await rejectOrder(db, id, new Date(), {
          userId: actor.userId,
          ip: actor.ip,
          reason: decision.reason,
        });
  } catch (error) {
    if (error instanceof OrderDecisionError) {
      throw new AppError(error.message.includes('does not exist') ? 'ORDER_NOT_FOUND' : 'ORDER_NOT_PAYABLE');
    }
    throw error;
  }
}

/**
 * Sets (or takes away) the day a pending order must be paid by; from the next day on the order
 * shows its late fee (late-fee.ts). Kept on the order's payment row, made here when the company has
 * not chosen a way to pay yet. Audited in the company's chain as `order.setDueDate`.
 */
export async function setOrderDueDate(
  db: Db,
  actor: OperatorActor,
  input: SetDueDateRequest,
): Promise<OperatorOrderView> {
  const id = idFromWire(input.id) ?? 0;
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
    if (!row) throw new AppError('ORDER_NOT_FOUND');
    if (row.status !== OrderStatus.Pending) throw new AppError('ORDER_DUE_NOT_PENDING');
    const [before] = await tx
      .select({ dueDate: orderPayments.dueDate })
      .from(orderPayments)
      .where(eq(orderPayments.orderId, id));
    await tx
      .insert(orderPayments)
      .values({ orderId: id, companyId: row.companyId, dueDate: input.dueDate })
      .onConflictDoUpdate({
        target: orderPayments.orderId,
        set: { dueDate: input.dueDate, updatedAt: new Date() },
      });
    await recordAudit(
      tx,
      { companyId: row.companyId, userId: actor.userId, ip: actor.ip },
      {
        action: 'order.setDueDate',
        targetType: 'order',
        targetId: id,
        before: { dueDate: before?.dueDate ?? null },
        after: { dueDate: input.dueDate },
      },
    );
  });
  const [raw] = await queryRows<{ row: OrderRowJson }>(
    db,
    sql`select ${ORDER_ROW} as row from ${orders} where ${orders.id} = ${id}`,
  );
  return {
    ...presentOrderRow(raw!.row),
    companyId: idToWire(BigInt(raw!.row.companyId)),
    companyName: raw!.row.companyName ?? '',
  };
}
