import { bigint, bigserial, index, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';

/**
 * A period when a device's service had lapsed: from its expiry instant until the renewal that
 * brought service back (docs/decisions.md, "Data recovery"). Readings of the period are kept but
 * hidden until an approved recovery order covers it. Rows are written when a renewal is approved
 * after the expiry had passed; the lapse of a device that is still expired is not stored, it is
 * read from `devices.expire_time`. `lapsed_until` null means still open (up to now).
 */
export const serviceLapses = pgTable(
  'service_lapses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    lapsedFrom: timestamp('lapsed_from', { withTimezone: true }).notNull(),
    lapsedUntil: timestamp('lapsed_until', { withTimezone: true }),
  },
  (t) => [index('service_lapses_device_idx').on(t.deviceId, t.lapsedFrom)],
);
