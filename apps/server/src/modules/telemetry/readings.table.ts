import { bigint, boolean, pgTable, primaryKey, real, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every stored reading, keyed by (sensor, instant): a reading sent twice is stored once. The
 * migration creates it range-partitioned by month on `ts` (drizzle-kit cannot express that), with
 * a default partition for anything outside the prepared months; see `partitions.ts`.
 */
export const readings = pgTable(
  'readings',
  {
    sensorId: bigint('sensor_id', { mode: 'number' }).notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    value: real('value').notNull(),
    /** Arrived late (after an outage, or older than the sensor's latest value). */
    backfilled: boolean('backfilled').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.ts] })],
);
