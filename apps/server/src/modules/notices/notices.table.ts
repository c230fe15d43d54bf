import { bigint, bigserial, index, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';

/** Notice state, spec section 4 "Notification: unread, resolved, invalid" (read is kept apart from resolved). */
export const NoticeState = { Unread: 1, Read: 2, Resolved: 3, Invalid: 4 } as const;

/** A message to one user (reminders, approvals, alarms); it feeds the top-bar badge. */
export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** `{ cn, en }` so the text follows the reader's language. */
    title: jsonb('title').$type<{ cn: string; en: string }>().notNull(),
    content: jsonb('content').$type<{ cn: string; en: string }>().notNull(),
    state: smallint('state').notNull().default(NoticeState.Unread),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notices_user_state_idx').on(t.userId, t.companyId, t.state)],
);
