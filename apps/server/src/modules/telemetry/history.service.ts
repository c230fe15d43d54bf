import type { HistoryData, HistoryDataRequest } from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { deviceIdsWhere } from '../org/access';
import { hiddenRanges, mayHaveHiddenReadings } from '../service-periods/hidden-ranges';
import { subtractRanges, type TimeRange } from '../service-periods/time-ranges';
import { activationOverR, DEFAULT_ACTIVATION_ENERGY_KJ, mktFromSum } from './mkt';
import { LEVEL_MS, type Level, rangeRows, storedReadings } from './reading-sources';

interface HistoryRow {
  n: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  expsum: number | null;
  points: [number, number][] | null;
}

/** Visible parts of a range, as closed intervals [from, to] in ms. */
export type Segment = [number, number];

/**
 * [start, end] without the hidden ranges, as closed segments: readings are stored to the
 * millisecond, so the closed [start, end] is the half-open [start, end + 1) and a segment ends
 * 1 ms before a hidden range starts.
 */
export function visibleSegments(start: number, end: number, hidden: readonly TimeRange[]): Segment[] {
  return subtractRanges([[start, end + 1]], hidden).map(([from, to]): Segment => [from, to - 1]);
}

/** The union of rows of every segment, at one level. */
const rowsOf = (sensorId: number, segments: Segment[], level: Level, hOverR: number) =>
  sql.join(
    segments.map(([from, to]) => rangeRows(sensorId, from, to, level, hOverR)),
    sql` union all `,
  );

/** Ranges up to this long read every point in the same statement as the buckets (see below). */
const ONE_STATEMENT_RANGE_MS = 31 * 24 * 3_600_000;

interface SensorFacts {
  deviceId: number | string;
  type: string;
  /** The device's service lapsed at some time: some readings may be hidden. */
  lapsed: boolean;
}

/**
 * A sensor's readings over a range with min, max, average and mean kinetic temperature. With
 * `maxPoints` below the number of readings, the range is cut into `maxPoints / 2` buckets and each
 * bucket's minimum and maximum are kept with their own instants, so no excursion disappears from
 * a chart however far it is zoomed out. Statistics read the daily and hourly rollups for the days
 * and hours the range covers whole, and buckets of an hour or a day read them too, so a year
 * costs a few hundred rows, not a hundred thousand.
 *
 * One statement answers it all in the common case (on the embedded database each round trip costs
 * about a millisecond): the access check rides along, and readings are read only when the sensor
 * is the caller's and its device never lapsed. A device whose service lapsed may have hidden
 * readings (docs/decisions.md, "Data recovery"): its range is cut around them and asked again.
 */
export async function getHistoryData(
  db: Db,
  /** Devices the caller may see (org/access.ts `visibleDevices`). */
  scope: SQL,
  input: HistoryDataRequest,
  activationEnergyKj = DEFAULT_ACTIVATION_ENERGY_KJ,
): Promise<HistoryData> {
  const sensorId = idFromWire(input.sensorId);
  if (!sensorId) throw new AppError('SENSOR_NOT_FOUND');
  const sensorFacts = sql`select device_id as "deviceId", type,
      ${mayHaveHiddenReadings(sql`sensors.device_id`)} as lapsed
    from sensors where id = ${sensorId} and device_id in ${deviceIdsWhere(scope)}`;
  const first = await historyStatement(db, sensorId, input, activationEnergyKj, sensorFacts, [
    [input.startTime, input.endTime],
  ]);
  const sensor = first.sensor;
  if (!sensor) throw new AppError('SENSOR_NOT_FOUND');
  if (!sensor.lapsed) return presentHistory(first, sensor, activationEnergyKj);
  // Readings of an unrecovered lapsed service period are not shown (docs/decisions.md, "Data recovery").
  const deviceId = Number(sensor.deviceId);
  const hidden = (await hiddenRanges(db, [deviceId])).get(deviceId) ?? [];
  const segments = visibleSegments(input.startTime, input.endTime, hidden);
  if (segments.length === 0) return { points: [], min: null, max: null, avg: null, mkt: null };
  const again = await historyStatement(db, sensorId, input, activationEnergyKj, null, segments);
  return presentHistory(again, sensor, activationEnergyKj);
}

interface HistoryAnswer extends HistoryRow {
  /** Null when the sensor is not the caller's (or was not asked for). */
  sensor: SensorFacts | null;
}

/**
 * The statistics and points of `segments`. With `sensorFacts` (the sensor's access check and
 * facts), the statement answers them too and reads readings only for a visible sensor whose device
 * never lapsed; without, the caller has checked.
 */
async function historyStatement(
  db: Db,
  sensorId: number,
  input: HistoryDataRequest,
  activationEnergyKj: number,
  sensorFacts: SQL | null,
  segments: Segment[],
): Promise<HistoryAnswer> {
  const { startTime: start, endTime: end, maxPoints } = input;
  const hOverR = activationOverR(activationEnergyKj);
  // The rollups' MKT sums use the default activation energy; another one needs the raw readings.
  const statsLevel: Level = activationEnergyKj === DEFAULT_ACTIVATION_ENERGY_KJ ? 'day' : 'raw';
  const { level, origin, width } = bucketing(start, end, Math.max(1, Math.floor((maxPoints ?? 2) / 2)));
  // Readings are read only for a visible sensor whose device never lapsed (a one-time check).
  const gate = sensorFacts ? sql` where exists (select 1 from sensor where not sensor.lapsed)` : sql``;

  const everyPointOf = (where: SQL) => sql`
    select coalesce(json_agg(json_build_array((extract(epoch from ts) * 1000)::float8, value) order by ts), '[]'::json)
    from (${sql.join(
      segments.map(([from, to]) => storedReadings([sensorId], from, to)),
      sql` union all `,
    )}) r${where}`;
  const everyPoint = everyPointOf(gate);
  // One grouped pass: min() of [value, epoch] pairs is the lowest value at its earliest instant,
  // max() of [value, -epoch] the highest value at its earliest instant.
  const bucketExtremes = sql`
    select coalesce(json_agg(json_build_array(round(ts)::float8, v::real) order by ts), '[]'::json) from (
      select lo[2] * 1000 as ts, lo[1] as v from b
      union
      select -hi[2] * 1000 as ts, hi[1] as v from b) p`;
  // When statistics and buckets read the same level, one materialised CTE feeds both, so the
  // range's rows are read once rather than twice.
  const shared = Boolean(maxPoints) && level === statsLevel;
  const statsRows = shared ? sql`select * from r` : rowsOf(sensorId, segments, statsLevel, hOverR);
  const bucketRows = shared ? sql`select * from r` : rowsOf(sensorId, segments, level, hOverR);
  const buckets = sql`
    select floor((extract(epoch from key) * 1000 - ${origin}) / ${width})::int as k,
           min(array[min::float8, extract(epoch from min_ts)::float8]) as lo,
           max(array[max::float8, -extract(epoch from max_ts)::float8]) as hi
    from (${bucketRows}) s${gate}
    group by 1`;
  const ctes = [
    ...(sensorFacts ? [sql`sensor as materialized (${sensorFacts})`] : []),
    ...(shared ? [sql`r as materialized (${rowsOf(sensorId, segments, level, hOverR)})`] : []),
    ...(maxPoints ? [sql`b as (${buckets})`] : []),
    sql`stats as (
          select coalesce(sum(n), 0)::int as n, min(min)::float8 as min, max(max)::float8 as max,
                 (sum(sum) / nullif(sum(n), 0))::float8 as avg, sum(expsum)::float8 as expsum
          from (${statsRows}) src${gate}
        )`,
  ];
  // With maxPoints, every point is answered instead of the bucket extremes when there are no more
  // readings than that. For a short range both are in the statement (only one runs); for a long one
  // the points come from a second statement when needed: planning a year of raw partitions that
  // are then not read costs more than a round trip.
  const pointsInline = maxPoints && end - start <= ONE_STATEMENT_RANGE_MS;
  const points = !maxPoints
    ? everyPoint
    : pointsInline
      ? sql`case when stats.n <= ${maxPoints}::int then (${everyPoint}) else (${bucketExtremes}) end`
      : bucketExtremes;
  const sensorColumn = sensorFacts ? sql`, (select row_to_json(sensor) from sensor) as sensor` : sql``;
  const [row] = await queryRows<HistoryAnswer>(
    db,
    sql`with ${sql.join(ctes, sql`, `)}
        select stats.*, (${points}) as points${sensorColumn} from stats`,
  );
  if (!row) throw new AppError('INTERNAL');
  if (typeof row.sensor === 'string') row.sensor = JSON.parse(row.sensor);
  const readable = !sensorFacts || (row.sensor !== null && !row.sensor.lapsed);
  if (readable && maxPoints && !pointsInline && row.n <= maxPoints) {
    // The sensor was found readable above, so this statement needs no check of its own.
    const [all] = await queryRows<{ points: [number, number][] }>(
      db,
      sql`select (${everyPointOf(sql``)}) as points`,
    );
    row.points = all?.points ?? [];
  }
  return row;
}

function presentHistory(row: HistoryAnswer, sensor: SensorFacts, activationEnergyKj: number): HistoryData {
  const hOverR = activationOverR(activationEnergyKj);
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    points: row.points ?? [],
    min: round(row.min),
    max: round(row.max),
    avg: round(row.avg),
    mkt: sensor.type === 'temperature' ? round(mktFromSum(row.expsum ?? 0, row.n, hOverR)) : null,
  };
}

/**
 * Cuts [start, end] into at most `buckets` buckets. Buckets snap to the coarsest rollup (day, hour
 * or minute) no wider than twice the requested width, and to whole multiples of it, so every rollup row
 * falls in exactly one bucket; a year at 1 000 points gives 365 daily buckets (730 points).
 */
export function bucketing(
  start: number,
  end: number,
  buckets: number,
): { level: Level; origin: number; width: number } {
  const requested = (end - start + 1) / buckets;
  const level: Level =
    (['day', 'hour', 'minute'] as const).find((candidate) => requested * 2 >= LEVEL_MS[candidate]) ?? 'raw';
  if (level === 'raw') return { level, origin: start, width: requested };
  const step = LEVEL_MS[level];
  const origin = Math.floor(start / step) * step;
  const width = Math.max(step, Math.ceil((end - origin + 1) / buckets / step) * step);
  return { level, origin, width };
}
