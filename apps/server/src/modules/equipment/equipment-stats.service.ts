import type { EquipmentStats, EquipmentStatsRequest } from '@coldchain/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { devices, sensors } from '../devices/devices.table';
import { hiddenRanges } from '../service-periods/hidden-ranges';
import { visibleSegments } from '../telemetry/history.service';
import { activationOverR, mktFromSum } from '../telemetry/mkt';
import { storedReadings } from '../telemetry/reading-sources';
import { equipmentSensors } from './equipment.table';
import { equipmentOf } from './equipment-access';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The excursion budget is set per 30 days (docs/API.md "Equipment") and scaled to the period. */
const BUDGET_PERIOD_MS = 30 * DAY;
/**
 * A reading stands for the temperature until the next one, but at most this long: a monitor
 * silent for longer says nothing about the fridge, so an excursion is not stretched over a gap.
 */
export const READING_VALIDITY_MS = 2 * 60 * MINUTE;

const PERIOD_MS = { day: DAY, week: 7 * DAY, month: 30 * DAY } as const;

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/**
 * Statistics of the detail page over the equipment's bound sensors: per sensor count, min, max,
 * mean and (temperature sensors) mean kinetic temperature with the configured activation energy;
 * and the minutes during which any temperature sensor read outside the excursion budget's limits,
 * against the budget scaled to the period. Raw readings are read (the rollups hold MKT sums of the
 * default activation energy only, and time out of range needs every reading's instant); readings
 * hidden by a lapsed service are left out, as on the history chart.
 */
export async function equipmentStats(
  db: Db,
  auth: Auth,
  input: EquipmentStatsRequest,
  activationEnergyKj: number,
  now = Date.now(),
): Promise<EquipmentStats> {
  const row = await equipmentOf(db, auth, input.id);
  const [startTime, endTime] =
    input.period === 'custom' ? [input.startTime!, input.endTime!] : [now - PERIOD_MS[input.period], now];
  const bound = await db
    .select({
      id: sensors.id,
      deviceId: sensors.deviceId,
      name: sensors.name,
      unit: sensors.unit,
      type: sensors.type,
    })
    .from(equipmentSensors)
    .innerJoin(sensors, eq(sensors.id, equipmentSensors.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(eq(equipmentSensors.equipmentId, row.id))
    .orderBy(devices.serial, sensors.channel);
  const hidden = await hiddenRanges(
    db,
    bound.map((s) => s.deviceId),
  );
  const readingsOf = (s: (typeof bound)[number]): SQL =>
    sql.join(
      visibleSegments(startTime, endTime, hidden.get(s.deviceId) ?? []).map(([from, to]) =>
        storedReadings([s.id], from, to),
      ),
      sql` union all `,
    );
  const withReadings = bound.filter(
    (s) => visibleSegments(startTime, endTime, hidden.get(s.deviceId) ?? []).length,
  );
  const readings = withReadings.length
    ? sql.join(
        withReadings.map((s) => sql`select sensor_id, ts, value from (${readingsOf(s)}) x`),
        sql` union all `,
      )
    : sql`select null::bigint as sensor_id, null::timestamptz as ts, null::real as value where false`;
  const hOverR = activationOverR(activationEnergyKj);
  const perSensor = await queryRows<{
    sensor_id: string | number;
    n: number;
    min: number | null;
    max: number | null;
    avg: number | null;
    expsum: number | null;
  }>(
    db,
    sql`select sensor_id, count(*)::int as n, min(value)::float8 as min, max(value)::float8 as max,
          avg(value)::float8 as avg,
          sum(case when value > -273 then exp(-${hOverR}::float8 / (value::float8 + 273.15)) else 0 end)::float8 as expsum
        from (${readings}) r group by sensor_id`,
  );
  const bySensor = new Map(perSensor.map((r) => [Number(r.sensor_id), r]));
  const temperatureIds = bound.filter((s) => s.type === 'temperature').map((s) => s.id);
  const outOfRangeMs = row.excursion
    ? await minutesOutside(db, readings, temperatureIds, row.excursion, endTime)
    : 0;
  const minutesOutOfRange = Math.round(outOfRangeMs / MINUTE);
  const budget = row.excursion
    ? (() => {
        const budgetMinutes = Math.round(
          (row.excursion.budgetMinutes * (endTime - startTime)) / BUDGET_PERIOD_MS,
        );
        return {
          min: row.excursion.min ?? null,
          max: row.excursion.max ?? null,
          budgetMinutes,
          usedMinutes: minutesOutOfRange,
          // A zero budget is used up by any minute out of range.
          ratio:
            budgetMinutes > 0
              ? Math.round((minutesOutOfRange / budgetMinutes) * 1000) / 1000
              : minutesOutOfRange > 0
                ? 1
                : 0,
        };
      })()
    : null;
  return {
    startTime,
    endTime,
    sensors: bound.map((s) => {
      const r = bySensor.get(s.id);
      const n = r?.n ?? 0;
      return {
        sensorId: idToWire(s.id),
        name: s.name,
        unit: s.unit,
        count: n,
        min: round2(r?.min ?? null),
        max: round2(r?.max ?? null),
        mean: round2(r?.avg ?? null),
        mkt: s.type === 'temperature' ? round2(mktFromSum(r?.expsum ?? 0, n, hOverR)) : null,
      };
    }),
    minutesOutOfRange,
    budget,
  };
}

/**
 * Milliseconds during which at least one of the sensors read outside [min, max]: each reading out
 * of range counts until the sensor's next reading (at most `READING_VALIDITY_MS`, never past the
 * period's end), and overlapping spans of several sensors count once.
 */
async function minutesOutside(
  db: Db,
  readings: SQL,
  sensorIds: number[],
  limits: { min?: number; max?: number },
  endTime: number,
): Promise<number> {
  if (sensorIds.length === 0) return 0;
  const outside = sql.join(
    [
      limits.min === undefined ? null : sql`value < ${limits.min}`,
      limits.max === undefined ? null : sql`value > ${limits.max}`,
    ].filter((c): c is SQL => c !== null),
    sql` or `,
  );
  const [row] = await queryRows<{ ms: number | null }>(
    db,
    sql`with r as (
          select ts, value, least(
            coalesce(lead(ts) over (partition by sensor_id order by ts), ${new Date(endTime).toISOString()}::timestamptz),
            ts + ${`${READING_VALIDITY_MS} milliseconds`}::interval,
            ${new Date(endTime).toISOString()}::timestamptz) as until
          from (${readings}) x where sensor_id = any(${sql`array[${sql.join(
            sensorIds.map((id) => sql`${id}`),
            sql`, `,
          )}]::bigint[]`})
        ), spans as (
          select ts, until, max(until) over (order by ts, until rows between unbounded preceding and 1 preceding) as reach
          from r where ${outside} and until > ts
        ), islands as (
          select ts, until, sum(case when reach is null or ts > reach then 1 else 0 end) over (order by ts, until) as island
          from spans
        )
        select coalesce(sum(extract(epoch from (last - first)) * 1000), 0)::float8 as ms
        from (select min(ts) as first, max(until) as last from islands group by island) i`,
  );
  return row?.ms ?? 0;
}
