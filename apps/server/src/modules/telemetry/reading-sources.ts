import { type SQL, sql } from 'drizzle-orm';
import { pgArray } from '../../db/pg-array';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Rollup levels, finest first. `raw` reads the readings themselves. */
export type Level = 'raw' | 'minute' | 'hour' | 'day';
export const LEVEL_MS: Record<Level, number> = { raw: 0, minute: MINUTE, hour: HOUR, day: DAY };
const ROLLUPS = [
  { level: 'minute', table: 'readings_minute' },
  { level: 'hour', table: 'readings_hourly' },
  { level: 'day', table: 'readings_daily' },
] as const;

/** Whole UTC days the per-minute rollup is kept (packing.ts prunes it); hours and days are kept for ever. */
export const MINUTE_ROLLUP_DAYS = 7;

/** Minute rollup rows from this instant on are complete: the start of the UTC day a week ago. */
export function minuteRollupFrom(now: number): number {
  return Math.floor(now / DAY) * DAY - MINUTE_ROLLUP_DAYS * DAY;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Every stored reading of the sensors in [from, to) (or [from, to] with `inclusiveEnd`), as rows of
 * (sensor_id, ts, value, backfilled): the recent ones from `readings`, the packed ones unnested from
 * `readings_packed` (packing.ts). Callers never read either table alone, so packing is invisible.
 */
export function storedReadings(sensorIds: number[], from: number, to: number, inclusiveEnd = true): SQL {
  const upTo = (column: SQL) => (inclusiveEnd ? sql`${column} <= ${iso(to)}` : sql`${column} < ${iso(to)}`);
  return sql`
    select sensor_id, ts, value, backfilled from readings
    where sensor_id = any(${pgArray(sensorIds)}::bigint[]) and ts >= ${iso(from)} and ${upTo(sql`ts`)}
    union all
    select p.sensor_id, u.ts, u.value, u.backfilled
    from readings_packed p cross join lateral unnest(p.ts, p.value, p.backfilled) as u(ts, value, backfilled)
    where p.sensor_id = any(${pgArray(sensorIds)}::bigint[])
      and p.day >= ${iso(Math.floor(from / DAY) * DAY)} and p.day <= ${iso(to)}
      and u.ts >= ${iso(from)} and ${upTo(sql`u.ts`)}`;
}

/**
 * One sensor's range [start, end] as rollup-shaped rows (key, n, sum, expsum, min, min_ts, max,
 * max_ts), read at the coarsest level allowed: whole days from the daily rollup, the whole hours
 * left at the edges from the hourly one, the whole minutes left from the minute one (where it is
 * kept), and the raw readings of what remains. With `level` raw, every reading is its own row.
 * `hOverR` is used for raw rows only; the rollups hold the sums of the default activation energy.
 */
export function rangeRows(
  sensorId: number,
  start: number,
  end: number,
  level: Level,
  hOverR: number,
  now = Date.now(),
): SQL {
  const raw = (from: number, to: number) => sql`
    select ts as key, 1 as n, value::float8 as sum,
           case when value > -273 then exp(-${hOverR}::float8 / (value::float8 + 273.15)) else 0 end as expsum,
           value as min, ts as min_ts, value as max, ts as max_ts
    from (${storedReadings([sensorId], from, to, false)}) r`;
  const rollup = (table: string, from: number, to: number) => sql`
    select bucket as key, n, sum, expsum, min, min_ts, max, max_ts from ${sql.raw(table)}
    where sensor_id = ${sensorId} and bucket >= ${iso(from)} and bucket < ${iso(to)}`;
  const usable = ROLLUPS.slice(0, ROLLUPS.findIndex((r) => r.level === level) + 1);

  /** [from, to) with the rollups up to index `top`: whole blocks of the coarsest, the rest finer. */
  const cover = (from: number, to: number, top: number): SQL[] => {
    if (to <= from) return [];
    if (top < 0) return [raw(from, to)];
    const { level: name, table } = usable[top]!;
    const step = LEVEL_MS[name];
    // Minute rows are pruned after a week: before that, the range is read one level finer.
    const floor = name === 'minute' ? Math.max(from, minuteRollupFrom(now)) : from;
    const first = Math.ceil(floor / step) * step;
    const last = Math.floor(to / step) * step;
    if (last <= first) return cover(from, to, top - 1);
    return [...cover(from, first, top - 1), rollup(table, first, last), ...cover(last, to, top - 1)];
  };
  // Readings are stored to the millisecond: [start, end] is [start, end + 1 ms).
  return sql.join(cover(start, end + 1, usable.length - 1), sql` union all `);
}
