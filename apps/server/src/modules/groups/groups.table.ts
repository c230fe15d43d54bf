import { bigint, bigserial, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { departments } from '../org/org.table';

/**
 * A device group (spec sections 3-5): a named set of monitors inside one department, optionally
 * under another group of the same department. It has no state column: its state is derived from
 * its devices when read (groups.service.ts). `devices.group_id` points here; deleting a group
 * clears it in the same transaction.
 */
export const deviceGroups = pgTable(
  'device_groups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: bigint('department_id', { mode: 'number' })
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    parentId: bigint('parent_id', { mode: 'number' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Two groups of one department may not share a name: the device forms pick groups by name.
    uniqueIndex('device_groups_department_name_key').on(t.departmentId, t.name),
    index('device_groups_company_idx').on(t.companyId),
  ],
);
