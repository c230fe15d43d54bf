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

/** A rollup row: count, sums and each period's extremes with their instants. */
const rollupColumns = {
  n: integer('n').notNull(),
  sum: doublePrecision('sum').notNull(),
  expsum: doublePrecision('expsum').notNull(),
  min: real('min').notNull(),
  minTs: timestamp('min_ts', { withTimezone: true }).notNull(),
  max: real('max').notNull(),
  maxTs: timestamp('max_ts', { withTimezone: true }).notNull(),
};

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
 * Per-minute rollup of the last week (`packing.ts` prunes older rows): loggers may record every 10
 * seconds, and a chart of a few days of them reads minutes, not every reading. Older ranges are
 * charted from the hourly and daily rollups, which are kept for ever.
 */
export const readingsMinute = pgTable(
  'readings_minute',
  {
    sensorId: bigint('sensor_id', { mode: 'number' }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    ...rollupColumns,
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.bucket] })],
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
    ...rollupColumns,
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.bucket] })],
);

/**
 * Daily rollup (UTC days), kept current with the hourly one, so a year's chart or statistics read
 * 365 rows (docs/decisions.md, "Reading storage").
 */
export const readingsDaily = pgTable(
  'readings_daily',
  {
    sensorId: bigint('sensor_id', { mode: 'number' }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    ...rollupColumns,
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.bucket] })],
);

/**
 * Readings older than a few days, packed one row per sensor and UTC day (parallel arrays sorted
 * by instant), the way column stores compress cold data: a row per reading costs about 90 bytes
 * with its index, a packed reading about 13. `packing.ts` moves them here from `readings`;
 * `reading-sources.ts` reads both as one.
 */
export const readingsPacked = pgTable(
  'readings_packed',
  {
    sensorId: bigint('sensor_id', { mode: 'number' }).notNull(),
    day: timestamp('day', { withTimezone: true }).notNull(),
    ts: timestamp('ts', { withTimezone: true }).array().notNull(),
    value: real('value').array().notNull(),
    backfilled: boolean('backfilled').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.day] })],
);

/**
 * Every position a device reported (records carrying both `lat` and `lng`), keyed by (device,
 * instant) like readings: a record sent twice is stored once. `devices.lat/lng` keep the latest
 * one for the map mode; this table is the track a shipment's map draws (logistics
 * delivery-route.ts). Written by ingest in the batch's one statement (write-batch.ts). No foreign
 * key, as for readings: devices are never deleted, and the check would cost every row of the hot
 * path a lookup.
 */
export const devicePositions = pgTable(
  'device_positions',
  {
    deviceId: bigint('device_id', { mode: 'number' }).notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.ts] })],
);
