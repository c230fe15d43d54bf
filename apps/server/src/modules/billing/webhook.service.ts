import { OrderStatus } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { approveOrder, OrderDecisionError } from './order-decisions';
import { orders } from './orders.table';
import { orderPayments } from './payments.table';

/** What the webhook did with an event, for the log and the tests. */
export type WebhookOutcome = 'paid' | 'already-paid' | 'ignored' | 'mismatch';

interface CheckoutEvent {
  type?: unknown;
  data?: {
    object?: {
      id?: unknown;
      client_reference_id?: unknown;
      payment_status?: unknown;
      amount_total?: unknown;
      currency?: unknown;
    };
  };
}

/**
 * `checkout.session.completed` with `payment_status: paid` pays its order. The session must be the
 * one this server opened for that order and the amount and currency the order's, so an event for
 * another order, an old session or a changed price pays nothing.
 *
 * Exactly once: approveOrder locks the order row and only a pending order moves, so a second
 * delivery of the same event (providers retry, sometimes concurrently) finds it approved and is
 * answered as success without doing anything again.
 */
export async function handleCheckoutEvent(
  db: Db,
  event: CheckoutEvent,
  now = new Date(),
): Promise<WebhookOutcome> {
  const session = event.data?.object;
  if (
    event.type !== 'checkout.session.completed' &&
    event.type !== 'checkout.session.async_payment_succeeded'
  ) {
    return 'ignored';
  }
  if (session?.payment_status !== 'paid' || typeof session.id !== 'string') return 'ignored';
  const [payment] = await db
    .select({
      orderId: orderPayments.orderId,
      // What the checkout charged: the amount and the late fee fixed when it was opened.
      amountCents: sql<number>`${orders.amountCents} + ${orderPayments.lateFeeCents}`.mapWith(Number),
      status: orders.status,
    })
    .from(orderPayments)
    .innerJoin(orders, eq(orders.id, orderPayments.orderId))
    .where(eq(orderPayments.checkoutSessionId, session.id));
  if (!payment) return 'mismatch';
  if (
    String(session.client_reference_id ?? '') !== String(payment.orderId) ||
    Number(session.amount_total) !== payment.amountCents ||
    String(session.currency ?? '').toLowerCase() !== 'myr'
  ) {
    return 'mismatch';
  }
  if (payment.status === OrderStatus.Approved) return 'already-paid';
  try {
    await approveOrder(db, payment.orderId, now, { paidOnline: true });
    return 'paid';
  } catch (error) {
    // Another delivery won the lock first: the order is paid, and this one changes nothing.
    if (error instanceof OrderDecisionError) return 'already-paid';
    throw error;
  }
}
