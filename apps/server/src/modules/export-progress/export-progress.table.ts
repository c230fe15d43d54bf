import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table';

/**
 * How far each running export has got (issue 15 item 4), so the dialog that waits for the file
 * can show a figure. In the database, not in memory, so the poll may reach any instance.
 * Keyed by the user and the id the console made; rows older than a day are dropped.
 */
export const exportProgress = pgTable(
  'export_progress',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** reading | writing | done | failed */
    phase: text('phase').$type<'reading' | 'writing' | 'done' | 'failed'>().notNull(),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index('export_progress_updated_idx').on(t.updatedAt)],
);
