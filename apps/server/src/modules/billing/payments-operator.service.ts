import type { OperatorOrderView, OperatorPageOrdersRequest, OrderView, Page } from '@coldchain/contract';
import { and, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { companies } from '../companies/companies.table';
import type { OperatorActor } from './invoices-operator.service';
import { approveOrder, OrderDecisionError, rejectOrder } from './order-decisions';
import { orders } from './orders.table';
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
