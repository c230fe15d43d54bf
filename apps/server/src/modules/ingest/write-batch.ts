import type { UpRecord } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { activationOverR } from '../telemetry/mkt';
import { packedBefore } from '../telemetry/packing';
import { minuteRollupFrom } from '../telemetry/reading-sources';
import type { KnownDevice } from './device-directory';

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
 * Folds the rows this statement inserted (`ins`) into a rollup table, so rollups stay current
 * with every commit. Each period keeps its extremes with their instants (earliest on ties).
 */
function rollInto(
  table: 'readings_minute' | 'readings_hourly' | 'readings_daily',
  period: '1 minute' | '1 hour' | '1 day',
  /** Only readings from this instant on: the minute rollup is kept a week, older rows would be pruned. */
  since?: number,
) {
  return sql`
        insert into ${sql.raw(table)} as h (sensor_id, bucket, n, sum, expsum, min, min_ts, max, max_ts)
        select sensor_id, date_bin(${period}::interval, ts, ${ROLLUP_ORIGIN}::timestamptz), count(*), sum(value),
               sum(case when value > -273 then exp(-${HOUR_K}::float8 / (value::float8 + 273.15)) else 0 end),
               min(value), (array_agg(ts order by value, ts))[1], max(value), (array_agg(ts order by value desc, ts))[1]
        from ins ${since === undefined ? sql`` : sql`where ts >= ${new Date(since).toISOString()}`} group by 1, 2
        on conflict (sensor_id, bucket) do update set
          n = h.n + excluded.n, sum = h.sum + excluded.sum, expsum = h.expsum + excluded.expsum,
          min_ts = case when excluded.min < h.min or (excluded.min = h.min and excluded.min_ts < h.min_ts) then excluded.min_ts else h.min_ts end,
          min = least(h.min, excluded.min),
          max_ts = case when excluded.max > h.max or (excluded.max = h.max and excluded.max_ts < h.max_ts) then excluded.max_ts else h.max_ts end,
          max = greatest(h.max, excluded.max)`;
}

const pgArray = (values: (string | number | boolean)[]) => `{${values.join(',')}}`;

/**
 * Writes the readings of several messages in the current transaction: one idempotent insert for
 * all of them, the sensors' latest values, and each device's last contact, battery, power, mode
 * and state. Returns a result per job, in order.
 */
export async function writeIngestBatch(
  tx: Tx,
  jobs: IngestJob[],
): Promise<{ results: IngestResult[]; committed: CommittedReading[] }> {
  const sensorIds: number[] = [];
  const instants: number[] = [];
  const values: number[] = [];
  const late: boolean[] = [];
  /** Each sensor's newest reading in this batch, for its latest value. */
  const latest = new Map<number, { ts: number; value: number }>();
  const now = Date.now();
  const owner: number[] = [];
  const channels: number[] = [];
  const modes: UpRecord['mode'][] = [];
  const results: IngestResult[] = jobs.map(() => ({ stored: 0, duplicates: 0, unknownChannels: [] }));
  const committed: CommittedReading[] = [];
  const deviceState = new Map<number, { ts: number; record: UpRecord }>();
  /** The newest record per device that carries a full GPS position (lat and lng). */
  const positions = new Map<number, { ts: number; lat: number; lng: number }>();

  jobs.forEach((job, jobIndex) => {
    for (const record of job.records) {
      const newest = deviceState.get(job.device.id);
      if (!newest || newest.ts <= record.ts) deviceState.set(job.device.id, { ts: record.ts, record });
      if (record.lat !== undefined && record.lng !== undefined) {
        const known = positions.get(job.device.id);
        if (!known || known.ts <= record.ts)
          positions.set(job.device.id, { ts: record.ts, lat: record.lat, lng: record.lng });
      }
      // Service mode records nothing (spec section 4); the device's mode is still updated.
      if (record.mode === 'service') continue;
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
        if (!newestOfSensor || newestOfSensor.ts <= record.ts)
          latest.set(sensorId, { ts: record.ts, value: v });
        owner.push(jobIndex);
        channels.push(ch);
        modes.push(record.mode);
      }
    }
  });

  if (sensorIds.length > 0) {
    // One statement: insert what is new, fold exactly those rows into the minute, hourly and daily rollups, and
    // report them back so each message learns what was stored and what was a repeat.
    const inserted = await queryRows<{ sensor_id: string | number; ms: number; backfilled: boolean }>(
      tx,
      sql`
      with ins as (
        insert into readings (sensor_id, ts, value, backfilled)
        select u.sensor_id, u.ts, u.value, u.late or (s.update_time is not null and u.ts < s.update_time)
        from (select sensor_id, to_timestamp(ms / 1000.0) as ts, ms, value, late
              from unnest(${pgArray(sensorIds)}::bigint[], ${pgArray(instants)}::float8[], ${pgArray(values)}::real[], ${pgArray(late)}::bool[])
                   as u(sensor_id, ms, value, late)) u
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
      ), minute as (${rollInto('readings_minute', '1 minute', minuteRollupFrom(now))}
      ), hourly as (${rollInto('readings_hourly', '1 hour')}
      ), daily as (${rollInto('readings_daily', '1 day')}
      )
      select sensor_id, (extract(epoch from ts) * 1000)::float8 as ms, backfilled from ins`,
    );
    const fresh = new Map(inserted.map((r) => [`${r.sensor_id}:${Math.round(r.ms)}`, r.backfilled]));
    sensorIds.forEach((sensorId, i) => {
      const key = `${sensorId}:${instants[i]}`;
      const job = jobs[owner[i]!]!;
      const result = results[owner[i]!]!;
      const backfilled = fresh.get(key);
      if (backfilled === undefined) {
        result.duplicates++;
        return;
      }
      fresh.delete(key);
      result.stored++;
      committed.push({
        companyId: job.device.companyId,
        deviceId: job.device.id,
        sensorId,
        channel: channels[i]!,
        ts: instants[i]!,
        value: values[i]!,
        mode: modes[i]!,
        backfilled,
      });
    });

    const sensorList = [...latest.keys()];
    const newestValues = sensorList.map((id) => latest.get(id)!);
    await tx.execute(sql`
      update sensors s set value = l.value, update_time = to_timestamp(l.ms / 1000.0)
      from unnest(${pgArray(sensorList)}::bigint[], ${pgArray(newestValues.map((l) => l.ts))}::float8[],
                  ${pgArray(newestValues.map((l) => l.value))}::real[]) as l(sensor_id, ms, value)
      where s.id = l.sensor_id and (s.update_time is null or s.update_time <= to_timestamp(l.ms / 1000.0))`);
  }

  const deviceIds = [...deviceState.keys()];
  const newest = deviceIds.map((id) => deviceState.get(id)!.record);
  await tx.execute(sql`
    update devices d set
      last_seen_at = now(),
      battery = coalesce(u.battery, d.battery),
      power = coalesce(nullif(u.power, ''), d.power),
      mode = u.mode,
      state = case
        when d.state = 6 then 6
        when u.mode = 'service' then 5
        when exists (select 1 from sensors s where s.device_id = d.id and s.value is not null
                     and (s.value < s.range_min or s.value > s.range_max)) then 3
        when d.state in (3, 4, 5) then 1
        else d.state end
    from unnest(${pgArray(deviceIds)}::bigint[], ${pgArray(newest.map((r) => r.battery ?? 'NULL'))}::smallint[],
                ${pgArray(newest.map((r) => r.power ?? '""'))}::text[], ${pgArray(newest.map((r) => r.mode))}::text[])
         as u(id, battery, power, mode)
    where d.id = u.id`);
  if (positions.size > 0) {
    // Only devices with a GPS module send a position; the others cost no extra statement.
    const ids = [...positions.keys()];
    const at = ids.map((id) => positions.get(id)!);
    await tx.execute(sql`
      update devices d set lat = u.lat, lng = u.lng
      from unnest(${pgArray(ids)}::bigint[], ${pgArray(at.map((p) => p.lat))}::float8[],
                  ${pgArray(at.map((p) => p.lng))}::float8[]) as u(id, lat, lng)
      where d.id = u.id`);
  }
  return { results, committed };
}
