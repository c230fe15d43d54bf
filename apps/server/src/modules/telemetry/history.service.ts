import type { HistoryData, HistoryDataRequest } from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { sensors } from '../devices/devices.table';
import { activationOverR, mktFromSum } from './mkt';

interface Stats {
  n: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  expsum: number | null;
}

/**
 * A sensor's readings over a range with min, max, average and mean kinetic temperature. With
 * `maxPoints` below the number of readings, the series is cut into `maxPoints / 2` buckets and
 * each bucket's minimum and maximum are kept with their own instants, so no excursion disappears
 * from a chart however far it is zoomed out.
 */
export async function getHistoryData(
  db: Db,
  companyId: number,
  input: HistoryDataRequest,
  activationEnergyKj?: number,
): Promise<HistoryData> {
  const sensorId = idFromWire(input.sensorId);
  const [sensor] = sensorId
    ? await db
        .select({ id: sensors.id, type: sensors.type })
        .from(sensors)
        .where(and(eq(sensors.companyId, companyId), eq(sensors.id, sensorId)))
        .limit(1)
    : [];
  if (!sensor) throw new AppError('SENSOR_NOT_FOUND');

  const start = new Date(input.startTime).toISOString();
  const end = new Date(input.endTime).toISOString();
  const hOverR = activationOverR(activationEnergyKj);
  const range = sql`sensor_id = ${sensor.id} and ts >= ${start} and ts <= ${end}`;
  const [stats] = await queryRows<Stats>(
    db,
    sql`
    select count(*)::int as n, min(value)::float8 as min, max(value)::float8 as max, avg(value)::float8 as avg,
           sum(exp(-${hOverR}::float8 / (value::float8 + 273.15)))::float8 as expsum
    from readings where ${range}`,
  );

  let points: [number, number][];
  if (!stats) throw new AppError('INTERNAL');
  if (!input.maxPoints || stats.n <= input.maxPoints) {
    const [result] = await queryRows<{ points: [number, number][] }>(
      db,
      sql`
      select coalesce(json_agg(json_build_array((extract(epoch from ts) * 1000)::float8, value::float8) order by ts), '[]'::json) as points
      from readings where ${range}`,
    );
    points = result?.points ?? [];
  } else {
    const buckets = Math.max(1, Math.floor(input.maxPoints / 2));
    const width = (input.endTime - input.startTime) / buckets;
    const [result] = await queryRows<{ points: [number, number][] }>(
      db,
      sql`
      with ranked as (
        select ts, value,
          row_number() over (partition by b order by value asc, ts) as lo,
          row_number() over (partition by b order by value desc, ts) as hi
        from (select ts, value, floor((extract(epoch from ts) * 1000 - ${input.startTime}) / ${width})::int as b
              from readings where ${range}) bucketed
      )
      select coalesce(json_agg(json_build_array((extract(epoch from ts) * 1000)::float8, value::float8) order by ts), '[]'::json) as points
      from ranked where lo = 1 or hi = 1`,
    );
    points = result?.points ?? [];
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
