import type { UpRecord } from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { plannedOnce } from '../../db/planned-once';
import { activationOverR } from '../telemetry/mkt';
import { packedBefore } from '../telemetry/packing';
import { minuteRollupFrom } from '../telemetry/reading-sources';
import type { KnownDevice } from './device-directory';
import { PositionTrack } from './position-track';

export interface IngestJob {
  device: KnownDevice;
  records: UpRecord[];
}

/** A reading that this batch stored for the first time (repeats are not reported again). */
export interface CommittedReading {
  companyId: number;
  deviceId: number;
  sensorId: number;
  channel: number;
  ts: number;
  value: number;
  mode: UpRecord['mode'];
  backfilled: boolean;
}

/** The server's clock for a batch and how far ahead of it a reading may decide a current value. */
export interface BatchClock {
  now: number;
  maxAheadMs: number;
}

export interface IngestResult {
  /** Readings newly stored. */
  stored: number;
  /** Readings already stored before (same device, channel and instant). */
  duplicates: number;
  /** Channels the device does not have; their values were not stored. */
  unknownChannels: number[];
}

/** ΔH/R at the default activation energy, for the rollup's MKT sums. */
const HOUR_K = activationOverR();

const ROLLUP_ORIGIN = '2000-01-01 00:00:00+00';

/**
 * Folds the rows this statement inserted (`ins`) into the rollups, so they stay current with
 * every commit. The rows are grouped once, by minute (`per_minute`); hours fold the minutes and
 * days the hours, so only the first level touches every reading. Each period keeps its extremes
 * with their instants, earliest on ties: the minimum of [value, epoch ms] pairs is the lowest
 * value at its earliest instant, the maximum of [value, -epoch ms] the highest at its earliest.
 * Pairs compare in a hash aggregate, with no sort. Instants are whole milliseconds, which a
 * float8 holds exactly.
 */
function rollups(
  /** The minute rollup is kept a week: readings before this instant would be pruned at once. */
  minutesFrom: number,
) {
  const upsert = sql`
        on conflict (sensor_id, bucket) do update set
          n = h.n + excluded.n, sum = h.sum + excluded.sum, expsum = h.expsum + excluded.expsum,
          min_ts = case when excluded.min < h.min or (excluded.min = h.min and excluded.min_ts < h.min_ts) then excluded.min_ts else h.min_ts end,
          min = least(h.min, excluded.min),
          max_ts = case when excluded.max > h.max or (excluded.max = h.max and excluded.max_ts < h.max_ts) then excluded.max_ts else h.max_ts end,
          max = greatest(h.max, excluded.max)`;
  const insertInto = (table: string, from: SQL) => sql`
        insert into ${sql.raw(table)} as h (sensor_id, bucket, n, sum, expsum, min, min_ts, max, max_ts)
        select sensor_id, bucket, n, sum, expsum, lo[1], to_timestamp(lo[2] / 1000), hi[1], to_timestamp(-hi[2] / 1000)
        from ${from}
        ${upsert}`;
  const fold = (period: '1 hour' | '1 day', from: string) => sql`
        select sensor_id, date_bin(${period}::interval, bucket, ${ROLLUP_ORIGIN}::timestamptz) as bucket,
               sum(n) as n, sum(sum) as sum, sum(expsum) as expsum, min(lo) as lo, max(hi) as hi
        from ${sql.raw(from)} group by 1, 2`;
  return sql`
      per_minute as (
        select sensor_id, date_bin('1 minute', ts, ${ROLLUP_ORIGIN}::timestamptz) as bucket, count(*) as n,
               sum(value::float8) as sum,
               sum(case when value > -273 then exp(-${HOUR_K}::float8 / (value::float8 + 273.15)) else 0 end) as expsum,
               min(array[value::float8, round(extract(epoch from ts) * 1000)::float8]) as lo,
               max(array[value::float8, -round(extract(epoch from ts) * 1000)::float8]) as hi
        from ins group by 1, 2
      ), minute as (${insertInto('readings_minute', sql`per_minute where bucket >= ${new Date(minutesFrom).toISOString()}`)}
      ), per_hour as (${fold('1 hour', 'per_minute')}
      ), hourly as (${insertInto('readings_hourly', sql`per_hour`)}
      ), daily as (${insertInto('readings_daily', sql`(${fold('1 day', 'per_hour')}) per_day`)}
      )`;
}

/**
 * Writes the readings of several messages in the current transaction, in one statement: an
 * idempotent insert for all of them, the sensors' latest values, each device's last contact,
 * battery, power, mode, state and position, and every record's position for the track. Returns a
 * result per job, in order.
 */
export async function writeIngestBatch(
  tx: Tx,
  jobs: IngestJob[],
  clock: BatchClock = { now: Date.now(), maxAheadMs: 300_000 },
): Promise<{ results: IngestResult[]; committed: CommittedReading[] }> {
  const sensorIds: number[] = [];
  const instants: number[] = [];
  const values: number[] = [];
  const late: boolean[] = [];
  /** Each sensor's newest reading in this batch, for its latest value. */
  const latest = new Map<number, { ts: number; value: number }>();
  const now = clock.now;
  /**
   * No reading dated after this decides a sensor's current value, and a current value dated after
   * it (stored before the window existed, or by a clock since corrected) gives way to any reading:
   * otherwise one reading from a clock set to 2126 would freeze the value shown for a century.
   */
  const currentUntil = now + clock.maxAheadMs;
  const owner: number[] = [];
  const channels: number[] = [];
  const modes: UpRecord['mode'][] = [];
  const results: IngestResult[] = jobs.map(() => ({ stored: 0, duplicates: 0, unknownChannels: [] }));
  const committed: CommittedReading[] = [];
  const deviceState = new Map<number, { ts: number; record: UpRecord }>();
  /** The newest record per device that carries a full GPS position (lat and lng). */
  const positions = new Map<number, { ts: number; lat: number; lng: number }>();
  /** Every record's position, once per (device, instant), for the track (`device_positions`). */
  const track = new PositionTrack();

  jobs.forEach((job, jobIndex) => {
    for (const record of job.records) {
      const newest = deviceState.get(job.device.id);
      if (!newest || newest.ts <= record.ts) deviceState.set(job.device.id, { ts: record.ts, record });
      if (record.lat !== undefined && record.lng !== undefined) {
        const known = positions.get(job.device.id);
        if (!known || known.ts <= record.ts)
          positions.set(job.device.id, { ts: record.ts, lat: record.lat, lng: record.lng });
      }
      // Service mode records nothing (spec section 4); the device's mode (and latest position)
      // is still updated.
      if (record.mode === 'service') continue;
      track.add(job.device.id, record);
      for (const { ch, v } of record.channels) {
        const sensorId = job.device.sensorIds.get(ch);
        if (sensorId === undefined) {
          if (!results[jobIndex]!.unknownChannels.includes(ch)) results[jobIndex]!.unknownChannels.push(ch);
          continue;
        }
        sensorIds.push(sensorId);
        instants.push(record.ts);
        values.push(v);
        // A reading is back-filled when it arrives more than two upload intervals (at least 2 min)
        // late, or (in SQL) when it is older than the sensor's latest value.
        late.push(record.ts < now - Math.max(120, job.device.uploadIntervalS * 2) * 1000);
        const newestOfSensor = latest.get(sensorId);
        if (record.ts <= currentUntil && (!newestOfSensor || newestOfSensor.ts <= record.ts))
          latest.set(sensorId, { ts: record.ts, value: v });
        owner.push(jobIndex);
        channels.push(ch);
        modes.push(record.mode);
      }
    }
  });

  if (deviceState.size === 0) return { results, committed };
  const deviceIds = [...deviceState.keys()];
  const newest = deviceIds.map((id) => deviceState.get(id)!.record);
  const at = deviceIds.map((id) => positions.get(id));
  // Each device's last contact, battery, power, mode, state and (GPS devices) position. A device is
  // abnormal (3) while a sensor's latest value is beyond its measuring range: `latest` holds the
  // values this statement sets, which its own sub-statements cannot see in `sensors`. The abnormal
  // devices are found once for the batch, through the sensors' device index: checked per device,
  // the check was planned once against a small table (a scan of every sensor) and then ran for
  // each device of every batch, so its cost grew with the fleet times the batch.
  const current = sensorIds.length > 0 ? sql`coalesce(l.value, s.value)` : sql`s.value`;
  const abnormal = sql`
      abnormal as (
        select distinct s.device_id from sensors s
        ${sensorIds.length > 0 ? sql`left join latest l on l.id = s.id` : sql``}
        where s.device_id = any(${pgArray(deviceIds)}::bigint[])
          and ${current} is not null and (${current} < s.range_min or ${current} > s.range_max)
      )`;
  const contact = sql`
      ${abnormal}, contact as (
        update devices d set
          last_seen_at = now(),
          battery = coalesce(u.battery, d.battery),
          power = coalesce(nullif(u.power, ''), d.power),
          mode = u.mode,
          lat = coalesce(u.lat, d.lat),
          lng = coalesce(u.lng, d.lng),
          state = case
            when d.state = 6 then 6
            when u.mode = 'service' then 5
            when d.id in (select device_id from abnormal) then 3
            when d.state in (3, 4, 5) then 1
            else d.state end
        from unnest(${pgArray(deviceIds)}::bigint[], ${pgArray(newest.map((r) => r.battery ?? 'NULL'))}::smallint[],
                    ${pgArray(newest.map((r) => r.power ?? '""'))}::text[], ${pgArray(newest.map((r) => r.mode))}::text[],
                    ${pgArray(at.map((p) => p?.lat ?? 'NULL'))}::float8[], ${pgArray(at.map((p) => p?.lng ?? 'NULL'))}::float8[])
             as u(id, battery, power, mode, lat, lng)
        where d.id = u.id
        returning d.id
      )${track.insert()}`;

  if (sensorIds.length === 0) {
    // No reading to store (service mode, or only channels the device lacks): the devices still
    // report in, and the positions of records outside service mode are kept.
    await tx.execute(plannedOnce(sql`with ${contact} select count(*) from contact`));
    return { results, committed };
  }

  const currentLimit = sql`to_timestamp(${currentUntil / 1000}::float8)`;
  const sensorList = [...latest.keys()];
  const newestValues = sensorList.map((id) => latest.get(id)!);
  // One statement, one round trip: insert what is new, fold exactly those rows into the minute,
  // hourly and daily rollups, set the sensors' latest values and the devices' contact, and report
  // the new rows back so each message learns what was stored and what was a repeat. Every
  // sub-statement runs to completion whether the final select reads it or not.
  // Only the exceptions come back: readings not stored (repeats) and stored ones found
  // back-filled. Returning every new row cost a quarter of the statement, in the database and
  // again in this thread.
  const exceptions = await queryRows<{ i: number; backfilled: boolean | null }>(
    tx,
    plannedOnce(sql`
      with input as (
        select sensor_id, to_timestamp(ms / 1000.0) as ts, ms, value, late, i
        from unnest(${pgArray(sensorIds)}::bigint[], ${pgArray(instants)}::float8[], ${pgArray(values)}::real[], ${pgArray(late)}::bool[])
             with ordinality as u(sensor_id, ms, value, late, i)
      ), ins as (
        insert into readings (sensor_id, ts, value, backfilled)
        select u.sensor_id, u.ts, u.value,
               u.late or (s.update_time is not null and u.ts < s.update_time and s.update_time <= ${currentLimit})
        from input u
        join sensors s on s.id = u.sensor_id
        -- Readings of days already packed (packing.ts) are repeats when the packed day holds them.
        where case when u.ms < ${packedBefore(now)}
                   then not exists (select 1 from readings_packed p
                                    where p.sensor_id = u.sensor_id
                                      and p.day = date_bin('1 day', u.ts, ${ROLLUP_ORIGIN}::timestamptz)
                                      and u.ts = any(p.ts))
                   else true end
        on conflict do nothing
        returning sensor_id, ts, value, backfilled
      ), ${rollups(minuteRollupFrom(now))}, latest as (
        update sensors s set value = l.value, update_time = to_timestamp(l.ms / 1000.0)
        from unnest(${pgArray(sensorList)}::bigint[], ${pgArray(newestValues.map((l) => l.ts))}::float8[],
                    ${pgArray(newestValues.map((l) => l.value))}::real[]) as l(sensor_id, ms, value)
        where s.id = l.sensor_id
          and (s.update_time is null or s.update_time <= to_timestamp(l.ms / 1000.0) or s.update_time > ${currentLimit})
        returning s.id, s.value
      ), ${contact}
      select (u.i - 1)::int as i, ins.backfilled from input u
      left join ins on ins.sensor_id = u.sensor_id and ins.ts = u.ts
      where ins.sensor_id is null or ins.backfilled`),
  );
  /** Index of a reading -> true: stored, back-filled; false: not stored. Absent: stored, on time. */
  const exceptional = new Map(exceptions.map((r) => [Number(r.i), r.backfilled === true]));
  /** A reading sent twice in one batch is stored once: the first is the stored one. */
  const seen = new Set<string>();
  sensorIds.forEach((sensorId, i) => {
    const job = jobs[owner[i]!]!;
    const result = results[owner[i]!]!;
    const key = `${sensorId}:${instants[i]}`;
    const exception = exceptional.get(i);
    if (exception === false || seen.has(key)) {
      result.duplicates++;
      return;
    }
    seen.add(key);
    result.stored++;
    committed.push({
      companyId: job.device.companyId,
      deviceId: job.device.id,
      sensorId,
      channel: channels[i]!,
      ts: instants[i]!,
      value: values[i]!,
      mode: modes[i]!,
      backfilled: exception === true,
    });
  });
  return { results, committed };
}
