import { bigint, bigserial, index, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';

/** Feedback from the top-bar form (spec section 3 "Feedback"). */
export const feedback = pgTable(
  'feedback',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' }).references(() => companies.id, {
      onDelete: 'set null',
    }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    category: smallint('category').notNull().default(7),
    imgUrl: text('img_url').notNull().default(''),
    source: smallint('source').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('feedback_company_idx').on(t.companyId),
    // "My feedback" lists one person's feedback, newest first.
    index('feedback_user_idx').on(t.userId, t.createdAt),
  ],
);
