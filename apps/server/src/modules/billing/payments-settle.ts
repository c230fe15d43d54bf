import { OrderStatus } from '@coldchain/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { grantCredit } from '../delivery/credits.service';
import { creditLedger } from '../delivery/delivery.table';
import { orderNumber } from './orders.service';
import type { orders } from './orders.table';
import { creditPurchases, orderPayments } from './payments.table';

type OrderRow = typeof orders.$inferSelect;

/** How a decision came about, recorded on the order's payment row. */
export interface DecisionDetails {
  /** The operator who decided; null for the provider's webhook or the admin CLI. */
  userId?: number | null;
  ip?: string;
  /** A rejection's reason, shown to the company. */
  reason?: string;
  /** Paid through the online checkout (the webhook). */
  paidOnline?: boolean;
}

/** The ledger note of a credit top-up: it names the order, so the ledger and the orders agree. */
export const creditTopUpNote = (row: Pick<OrderRow, 'id' | 'createdAt'>) => `order:${orderNumber(row)}`;

/**
 * Runs inside the decision's transaction (order-decisions.ts), after the order's status changed:
 * a paid credit top-up credits its messages to the ledger (once: the order is locked and was
 * pending), and the payment row records when and how it was paid or why it was rejected.
 */
export async function settleDecision(
  tx: Queryable,
  row: OrderRow,
  status: OrderStatus,
  now: Date,
  details: DecisionDetails,
): Promise<void> {
  if (status === OrderStatus.Approved && row.kind === 'credits') {
    const [purchase] = await tx.select().from(creditPurchases).where(eq(creditPurchases.orderId, row.id));
    if (purchase) {
      const note = creditTopUpNote(row);
      await grantCredit(tx, row.companyId, purchase.credits, note);
      const [entry] = await tx
        .select({ id: creditLedger.id })
        .from(creditLedger)
        .where(and(eq(creditLedger.companyId, row.companyId), eq(creditLedger.note, note)))
        .orderBy(desc(creditLedger.id))
        .limit(1);
      await tx
        .update(creditPurchases)
        .set({ ledgerId: entry?.id ?? null })
        .where(eq(creditPurchases.orderId, row.id));
    }
  }
  const values = {
    paidAt: status === OrderStatus.Approved ? now : null,
    rejectReason: status === OrderStatus.Rejected ? (details.reason ?? null) : null,
    ...(details.paidOnline ? { method: 'online' } : {}),
    updatedAt: now,
  };
  await tx
    .insert(orderPayments)
    .values({ orderId: row.id, companyId: row.companyId, ...values })
    .onConflictDoUpdate({ target: orderPayments.orderId, set: values });
}
