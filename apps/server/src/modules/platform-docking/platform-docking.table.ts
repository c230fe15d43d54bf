import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { pushUrls } from '../push-docking/push-docking.table';
import { users } from '../users/users.table';

/**
 * External platforms the supplier offers (`platformList`): where deliveries go and how they are
 * signed. The secret is the platform's, kept encrypted (lib/secret-box.ts) and never answered.
 */
export const dockingPlatforms = pgTable('docking_platforms', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  /** DockingProtocol: the adapter that shapes and signs each delivery (push-adapters.ts). */
  protocol: text('protocol').notNull(),
  endpoint: text('endpoint').notNull(),
  keyId: text('key_id').notNull(),
  secretSealed: text('secret_sealed').notNull(),
  offered: boolean('offered').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A company's docking to a platform. While pending, the chosen monitors wait in `deviceIds`; once
 * the supplier enables it, an address of the push docking queue is made for it (`pushUrlId`,
 * owned by the docking, never listed on the company's push pages), so readings and alarms travel
 * with the same retries, order and SIGKILL safety as push docking. Stopping deletes that address,
 * its queue and bindings, and empties `deviceIds`: the spec's "stopping clears the docking data".
 */
export const platformDockings = pgTable(
  'platform_dockings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    platformId: bigint('platform_id', { mode: 'number' })
      .notNull()
      .references(() => dockingPlatforms.id, { onDelete: 'cascade' }),
    /** DockingState: 1 pending, 2 enabled, 3 stopped. */
    state: smallint('state').notNull().default(1),
    deviceIds: bigint('device_ids', { mode: 'number' }).array().notNull().default([]),
    pushUrlId: bigint('push_url_id', { mode: 'number' }).references(() => pushUrls.id, {
      onDelete: 'set null',
    }),
    appliedBy: bigint('applied_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason').notNull().default(''),
  },
  (t) => [
    index('platform_dockings_company_idx').on(t.companyId),
    // One live docking per company and platform: a second application edits the first.
    uniqueIndex('platform_dockings_live_idx').on(t.companyId, t.platformId).where(sql`state <> 3`),
  ],
);
