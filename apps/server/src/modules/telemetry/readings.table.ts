import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  pgTable,
  primaryKey,
  real,
  timestamp,
} from 'drizzle-orm/pg-core';

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

/**
 * Hourly rollup of `readings`, kept current in the same transaction as each insert, so that long
 * ranges are answered from 8 760 rows a year instead of 105 120. The instants of each hour's
 * minimum and maximum are kept, so downsampled charts still place every extreme exactly.
 * `expsum` is Σ e^(-ΔH/(R·T)) at the default activation energy, for mean kinetic temperature.
 */
export const readingsHourly = pgTable(
  'readings_hourly',
  {
    sensorId: bigint('sensor_id', { mode: 'number' }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    n: integer('n').notNull(),
    sum: doublePrecision('sum').notNull(),
    expsum: doublePrecision('expsum').notNull(),
    min: real('min').notNull(),
    minTs: timestamp('min_ts', { withTimezone: true }).notNull(),
    max: real('max').notNull(),
    maxTs: timestamp('max_ts', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.bucket] })],
);
