import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';

/**
 * Which reminder was already sent, so the hourly sweep tells people once, not every hour. The
 * key names the reminder and what it is about (`deviceExpiry:<device>:<expiry>`, ...).
 */
export const remindersSent = pgTable(
  'reminders_sent',
  {
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] })],
);
