import { bigint, bigserial, index, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Messages to people that are not alarms: verification codes, warnings, reminders. Kept whether
 * or not they could be sent, so an operator without SMTP or an SMS provider can still see them
 * (ARCHITECTURE.md "notifications: outbox visible in the console").
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' }),
    /** email | sms */
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull(),
    /** 0 pending, 1 sent, 2 failed, 3 not sent: no provider configured */
    status: smallint('status').notNull().default(0),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_messages_recipient_idx').on(t.recipient, t.createdAt)],
);

export const OutboxStatus = { Pending: 0, Sent: 1, Failed: 2, NoProvider: 3 } as const;
