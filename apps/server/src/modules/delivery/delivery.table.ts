import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { alarmNotifications } from '../alarms/alarms.table';
import { companies } from '../companies/companies.table';

/**
 * The delivery queue's bookkeeping for one `alarm_notifications` row (the outbox row written by
 * the alarm engine keeps status, attempts, last error and sent time). A row without a delivery
 * row is due at once; `next_attempt_at` holds a retry back, `lease_until` ends a claim whose
 * worker died, and `claim_token` lets only the current claimant finish the row.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    notificationId: bigint('notification_id', { mode: 'number' })
      .primaryKey()
      .references(() => alarmNotifications.id, { onDelete: 'cascade' }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    claimToken: text('claim_token'),
    /** The address used (phone in E.164 form or e-mail), for the daily cap and the detail view. */
    recipient: text('recipient'),
    /** The provider's id of the message (Twilio SID, WhatsApp Cloud wamid, SMTP message id). */
    providerId: text('provider_id'),
    /** When the provider's delivery receipt (status callback or webhook) last changed the row. */
    receiptAt: timestamp('receipt_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notification_deliveries_recipient_idx').on(t.recipient),
    // Receipts name the message by the provider's id (WhatsApp Cloud webhooks carry only that).
    index('notification_deliveries_provider_id_idx').on(t.providerId),
  ],
);

/** A company's message credit (spec section 9). A company without a row has none. */
export const companyCredits = pgTable('company_credits', {
  companyId: bigint('company_id', { mode: 'number' })
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  balance: integer('balance').notNull().default(0),
  /** When administrators were last told that credit ran out (at most once a day). */
  lastNoCreditNoticeAt: timestamp('last_no_credit_notice_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every change of a balance: `grant` (top-up, demo seed), `debit` (one per delivered message,
 * reserved before sending) and `refund` (a reserved message that was finally not delivered).
 * A notification has at most one debit and one refund.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'grant' | 'debit' | 'refund'>().notNull(),
    /** Signed: negative for debits. */
    amount: integer('amount').notNull(),
    notificationId: bigint('notification_id', { mode: 'number' }),
    channel: text('channel'),
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_ledger_company_idx').on(t.companyId, t.createdAt),
    uniqueIndex('credit_ledger_notification_kind_key')
      .on(t.notificationId, t.kind)
      .where(sql`${t.notificationId} is not null`),
  ],
);
