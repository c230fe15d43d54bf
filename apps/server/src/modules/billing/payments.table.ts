import { bigint, date, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { orders } from './orders.table';

/**
 * How an order is paid (issue 17 item 2), one row per order once the company chooses a way or the
 * supplier sets terms: a bank transfer with its proof image, or an online checkout session. The
 * order's own status stays the one truth of "paid or approved" (orders.table.ts); this row says how.
 */
export const orderPayments = pgTable(
  'order_payments',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** PaymentMethod: transfer | online (approval = no row). */
    method: text('method'),
    proofImage: text('proof_image'),
    /** The provider's checkout session of the last online attempt. */
    checkoutSessionId: text('checkout_session_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** UTC day the payment is due (late fees, late-fee.ts); null = no due date. */
    dueDate: date('due_date', { mode: 'string' }),
    /**
     * The late fee the company pays with the order, fixed when it pays (transfer proof sent, or
     * checkout opened: the amount charged), so the approved order and its invoice carry it.
     */
    lateFeeCents: bigint('late_fee_cents', { mode: 'number' }).notNull().default(0),
    rejectReason: text('reject_reason'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('order_payments_session_key').on(t.checkoutSessionId)],
);

/** Credit top-up orders: how many message credits the order buys (granted when it is paid). */
export const creditPurchases = pgTable('credit_purchases', {
  orderId: bigint('order_id', { mode: 'number' })
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  credits: integer('credits').notNull(),
  /** The ledger row the grant wrote, so the ledger names its order. */
  ledgerId: bigint('ledger_id', { mode: 'number' }),
});
