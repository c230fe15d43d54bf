import type { HistoryData, HistoryDataRequest } from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { sensors } from '../devices/devices.table';
import { deviceIdsWhere } from '../org/access';
import { activationOverR, DEFAULT_ACTIVATION_ENERGY_KJ, mktFromSum } from './mkt';

const HOUR = 3_600_000;

interface Stats {
  n: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  expsum: number | null;
}

/**
 * The rows a range is made of, as (key, n, sum, expsum, min, min_ts, max, max_ts): hourly rollup
 * rows for the hours the range covers whole, raw readings for the partial hours at its edges.
 * With `rollups` false, every raw reading is its own row.
 */
function sourceRows(sensorId: number, start: number, end: number, rollups: boolean, hOverR: number): SQL {
  const iso = (ms: number) => new Date(ms).toISOString();
  const raw = (from: number, to: number, inclusiveEnd: boolean) => sql`
    select ts as key, 1 as n, value::float8 as sum,
           case when value > -273 then exp(-${hOverR}::float8 / (value::float8 + 273.15)) else 0 end as expsum,
           value as min, ts as min_ts, value as max, ts as max_ts
    from readings where sensor_id = ${sensorId} and ts >= ${iso(from)} and ${inclusiveEnd ? sql`ts <= ${iso(to)}` : sql`ts < ${iso(to)}`}`;
  if (!rollups) return raw(start, end, true);
  const firstHour = Math.ceil(start / HOUR) * HOUR;
  const lastHour = Math.floor((end + 1) / HOUR) * HOUR;
  if (lastHour <= firstHour) return raw(start, end, true);
  return sql`
    ${raw(start, firstHour, false)}
    union all
    select bucket, n, sum, expsum, min, min_ts, max, max_ts from readings_hourly
    where sensor_id = ${sensorId} and bucket >= ${iso(firstHour)} and bucket < ${iso(lastHour)}
    union all
    ${raw(lastHour, end, true)}`;
}

/**
 * A sensor's readings over a range with min, max, average and mean kinetic temperature. With
 * `maxPoints` below the number of readings, the range is cut into `maxPoints / 2` buckets and each
 * bucket's minimum and maximum are kept with their own instants, so no excursion disappears from
 * a chart however far it is zoomed out. Ranges of a day or more read the hourly rollup for the
 * hours they cover whole, so a year costs thousands of rows, not a hundred thousand.
 */
export async function getHistoryData(
  db: Db,
  /** Devices the caller may see (org/access.ts `visibleDevices`). */
  scope: SQL,
  input: HistoryDataRequest,
  activationEnergyKj = DEFAULT_ACTIVATION_ENERGY_KJ,
): Promise<HistoryData> {
  const sensorId = idFromWire(input.sensorId);
  const [sensor] = sensorId
    ? await db
        .select({ id: sensors.id, type: sensors.type })
        .from(sensors)
        .where(and(eq(sensors.id, sensorId), sql`${sensors.deviceId} IN ${deviceIdsWhere(scope)}`))
        .limit(1)
    : [];
  if (!sensor) throw new AppError('SENSOR_NOT_FOUND');

  const { startTime: start, endTime: end, maxPoints } = input;
  const hOverR = activationOverR(activationEnergyKj);
  // The rollup's MKT sums use the default activation energy; another one needs the raw readings.
  const statsFromRollups = end - start >= 24 * HOUR && activationEnergyKj === DEFAULT_ACTIVATION_ENERGY_KJ;
  const [stats] = await queryRows<Stats>(
    db,
    sql`select coalesce(sum(n), 0)::int as n, min(min)::float8 as min, max(max)::float8 as max,
               (sum(sum) / nullif(sum(n), 0))::float8 as avg, sum(expsum)::float8 as expsum
        from (${sourceRows(sensor.id, start, end, statsFromRollups, hOverR)}) src`,
  );
  if (!stats) throw new AppError('INTERNAL');

  let points: [number, number][];
  if (!maxPoints || stats.n <= maxPoints) {
    const [all] = await queryRows<{ points: [number, number][] }>(
      db,
      sql`select coalesce(json_agg(json_build_array((extract(epoch from ts) * 1000)::float8, value) order by ts), '[]'::json) as points
          from readings where sensor_id = ${sensor.id} and ts >= ${new Date(start).toISOString()} and ts <= ${new Date(end).toISOString()}`,
    );
    points = all?.points ?? [];
  } else {
    const buckets = Math.max(1, Math.floor(maxPoints / 2));
    let width = (end - start) / buckets;
    // Hour-aligned buckets of whole hours let each rollup row fall in exactly one bucket.
    const pointsFromRollups = width >= HOUR;
    if (pointsFromRollups) width = Math.ceil(width / HOUR) * HOUR;
    const origin = pointsFromRollups ? Math.floor(start / HOUR) * HOUR : start;
    const [picked] = await queryRows<{ points: [number, number][] }>(
      db,
      // One grouped pass: min() of [value, epoch] pairs is the lowest value at its earliest
      // instant, max() of [value, -epoch] the highest value at its earliest instant.
      sql`with b as (
            select floor((extract(epoch from key) * 1000 - ${origin}) / ${width})::int as k,
                   min(array[min::float8, extract(epoch from min_ts)::float8]) as lo,
                   max(array[max::float8, -extract(epoch from max_ts)::float8]) as hi
            from (${sourceRows(sensor.id, start, end, pointsFromRollups, hOverR)}) s
            group by 1
          ), p as (
            select lo[2] * 1000 as ts, lo[1] as v from b
            union
            select -hi[2] * 1000 as ts, hi[1] as v from b
          )
          select coalesce(json_agg(json_build_array(round(ts)::float8, v::real) order by ts), '[]'::json) as points
          from p`,
    );
    points = picked?.points ?? [];
  }

  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    points,
    min: round(stats.min),
    max: round(stats.max),
    avg: round(stats.avg),
    mkt: sensor.type === 'temperature' ? round(mktFromSum(stats.expsum ?? 0, stats.n, hOverR)) : null,
  };
}
