import { type SQL, sql } from 'drizzle-orm';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Rollup levels, finest first. `raw` reads the readings themselves. */
export type Level = 'raw' | 'hour' | 'day';
export const LEVEL_MS: Record<Level, number> = { raw: 0, hour: HOUR, day: DAY };

const iso = (ms: number) => new Date(ms).toISOString();
const idList = (sensorIds: number[]) => `{${sensorIds.join(',')}}`;

/**
 * Every stored reading of the sensors in [from, to) (or [from, to] with `inclusiveEnd`), as rows of
 * (sensor_id, ts, value, backfilled): the recent ones from `readings`, the packed ones unnested from
 * `readings_packed` (packing.ts). Callers never read either table alone, so packing is invisible.
 */
export function storedReadings(sensorIds: number[], from: number, to: number, inclusiveEnd = true): SQL {
  const upTo = (column: SQL) => (inclusiveEnd ? sql`${column} <= ${iso(to)}` : sql`${column} < ${iso(to)}`);
  return sql`
    select sensor_id, ts, value, backfilled from readings
    where sensor_id = any(${idList(sensorIds)}::bigint[]) and ts >= ${iso(from)} and ${upTo(sql`ts`)}
    union all
    select p.sensor_id, u.ts, u.value, u.backfilled
    from readings_packed p cross join lateral unnest(p.ts, p.value, p.backfilled) as u(ts, value, backfilled)
    where p.sensor_id = any(${idList(sensorIds)}::bigint[])
      and p.day >= ${iso(Math.floor(from / DAY) * DAY)} and p.day <= ${iso(to)}
      and u.ts >= ${iso(from)} and ${upTo(sql`u.ts`)}`;
}

/**
 * One sensor's range [start, end] as rollup-shaped rows (key, n, sum, expsum, min, min_ts, max,
 * max_ts), read at the coarsest level allowed: whole days from the daily rollup, whole hours at
 * the edges from the hourly one, and the raw readings of the partial hours at both ends. With
 * `level` raw, every reading is its own row. `hOverR` is used for raw rows only; the rollups hold
 * the sums of the default activation energy.
 */
export function rangeRows(sensorId: number, start: number, end: number, level: Level, hOverR: number): SQL {
  const raw = (from: number, to: number, inclusiveEnd: boolean) => sql`
    select ts as key, 1 as n, value::float8 as sum,
           case when value > -273 then exp(-${hOverR}::float8 / (value::float8 + 273.15)) else 0 end as expsum,
           value as min, ts as min_ts, value as max, ts as max_ts
    from (${storedReadings([sensorId], from, to, inclusiveEnd)}) r`;
  const rollup = (table: 'readings_hourly' | 'readings_daily', from: number, to: number) => sql`
    select bucket as key, n, sum, expsum, min, min_ts, max, max_ts from ${sql.raw(table)}
    where sensor_id = ${sensorId} and bucket >= ${iso(from)} and bucket < ${iso(to)}`;

  if (level === 'raw') return raw(start, end, true);
  const firstHour = Math.ceil(start / HOUR) * HOUR;
  const lastHour = Math.floor((end + 1) / HOUR) * HOUR;
  if (lastHour <= firstHour) return raw(start, end, true);
  const parts: SQL[] = [];
  if (start < firstHour) parts.push(raw(start, firstHour, false));
  const firstDay = Math.ceil(firstHour / DAY) * DAY;
  const lastDay = Math.floor(lastHour / DAY) * DAY;
  if (level === 'day' && lastDay > firstDay) {
    if (firstHour < firstDay) parts.push(rollup('readings_hourly', firstHour, firstDay));
    parts.push(rollup('readings_daily', firstDay, lastDay));
    if (lastDay < lastHour) parts.push(rollup('readings_hourly', lastDay, lastHour));
  } else {
    parts.push(rollup('readings_hourly', firstHour, lastHour));
  }
  parts.push(raw(lastHour, end, true));
  return sql.join(parts, sql` union all `);
}
