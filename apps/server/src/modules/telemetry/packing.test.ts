import type { HistoryData } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { bucketing } from './history.service';
import { meanKineticTemperature } from './mkt';
import { packedBefore, packOldReadings } from './packing';
import { ensureReadingPartitions } from './partitions';
import { DAY, HOUR, rangeRows } from './reading-sources';

describe('bucketing', () => {
  it('snaps a year at 1 000 points to daily buckets, a day to minutes and an hour to raw, never above the requested count', () => {
    const end = Date.UTC(2026, 10, 1);
    const year = bucketing(end - 365 * DAY, end, 500);
    expect(year.level).toBe('day');
    expect(year.width % DAY).toBe(0);
    expect(Math.ceil((end - year.origin + 1) / year.width)).toBeLessThanOrEqual(500);
    const month = bucketing(end - 30 * DAY, end, 500);
    expect(month).toMatchObject({ level: 'hour', width: 2 * HOUR });
    expect(bucketing(end - DAY, end, 500)).toMatchObject({ level: 'minute', width: 3 * 60_000 });
    expect(bucketing(end - HOUR, end, 500).level).toBe('raw');
  });
});

describe('packing old readings', () => {
  const ctx = useTestApp();
  /** "Now" for packing: everything before 2026-10-19 00:00 UTC belongs packed. */
  const now = Date.UTC(2026, 9, 21, 9, 30);
  const step = 5 * 60_000;

  async function seed(days: number, start: number) {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const values = Array.from(
      { length: days * 288 },
      (_, i) => Math.round((4 + 2 * Math.sin(i / 9)) * 10) / 10,
    );
    const [warm, cold] = [Math.floor(values.length / 3), Math.floor((2 * values.length) / 3)];
    values[warm] = 12.5;
    values[cold] = -1.5;
    const records = values.map((v, i) => ({
      ts: start + i * step,
      channels: [{ ch: 1, v }],
      mode: 'normal' as const,
    }));
    for (let i = 0; i < records.length; i += 1000)
      await ctx.app.ingest.ingest(known, records.slice(i, i + 1000));
    const token = await login(ctx.app, company.admin.account);
    const sensorId = device.sensors[0]!.id;
    return { known, values, token, sensorId, warm, cold };
  }

  const history = async (
    token: string,
    sensorId: number,
    startTime: number,
    endTime: number,
    maxPoints?: number,
  ) =>
    (
      await call<HistoryData>(
        ctx.app,
        '/api/device/historyData',
        { sensorId: String(sensorId), startTime, endTime, maxPoints },
        { token },
      )
    ).body.data;

  const counts = (sensorId: number) =>
    queryRows<{ hot: number; packed: number; days: number }>(
      ctx.app.db,
      sql`select (select count(*) from readings where sensor_id = ${sensorId})::int as hot,
                 (select coalesce(sum(cardinality(ts)), 0) from readings_packed where sensor_id = ${sensorId})::int as packed,
                 (select count(*) from readings_packed where sensor_id = ${sensorId})::int as days`,
    ).then((rows) => rows[0]!);

  it('moves readings older than two days into one row per sensor and day, and history answers the same', async () => {
    const start = Date.UTC(2026, 9, 13);
    const { values, token, sensorId, warm, cold } = await seed(8, start);
    const end = start + values.length * step - 1;
    // Unaligned edges exercise raw, hourly and daily sources together.
    const ranges: [number, number, number | undefined][] = [
      [start, end, undefined],
      [start + 7 * 60_000, end - 13 * 60_000, 400],
      [start + DAY + 3 * HOUR, start + 2 * DAY, undefined],
    ];
    const before = await Promise.all(ranges.map(([a, b, m]) => history(token, sensorId, a, b, m)));

    // Readings older than a week get no minute rows: they would only be pruned.
    const [minutes] = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from readings_minute where sensor_id = ${sensorId}`,
    );
    expect(minutes!.n).toBe(0);

    const result = await packOldReadings(ctx.app.db, now);
    expect(result.moved).toBe(6 * 288);
    expect(await counts(sensorId)).toEqual({ hot: 2 * 288, packed: 6 * 288, days: 6 });
    const after = await Promise.all(ranges.map(([a, b, m]) => history(token, sensorId, a, b, m)));
    expect(after).toEqual(before);
    expect(after[0]!.points).toHaveLength(values.length);
    expect(after[1]!.points).toContainEqual([start + warm * step, 12.5]);
    expect(after[1]!.points).toContainEqual([start + cold * step, -1.5]);
    expect(after[0]).toMatchObject({ min: -1.5, max: 12.5 });

    // A second run finds nothing more to move.
    expect((await packOldReadings(ctx.app.db, now)).moved).toBe(0);
  }, 60_000);

  it('treats a packed reading sent again as a repeat, and merges a late new one into its packed day', async () => {
    const start = Date.UTC(2026, 9, 10);
    const { known, token, sensorId } = await seed(2, start);
    await packOldReadings(ctx.app.db, now);
    expect(await counts(sensorId)).toMatchObject({ hot: 0, packed: 576, days: 2 });

    const repeat = await ctx.app.ingest.ingest(known, [
      { ts: start + 10 * step, channels: [{ ch: 1, v: 99 }], mode: 'normal' },
    ]);
    expect(repeat).toMatchObject({ stored: 0, duplicates: 1 });
    const lateTs = start + 10 * step + 60_000;
    const late = await ctx.app.ingest.ingest(known, [
      { ts: lateTs, channels: [{ ch: 1, v: 7.25 }], mode: 'normal' },
    ]);
    expect(late).toMatchObject({ stored: 1, duplicates: 0 });
    const window = await history(token, sensorId, start + 10 * step, start + 11 * step);
    expect(window.points.map((p) => p[1])).toEqual([expect.any(Number), 7.25, expect.any(Number)]);
    expect(window.points[1]![0]).toBe(lateTs);

    await packOldReadings(ctx.app.db, now);
    expect(await counts(sensorId)).toEqual({ hot: 0, packed: 577, days: 2 });
    expect(await history(token, sensorId, start + 10 * step, start + 11 * step)).toEqual(window);
    // Sent again after the merge, it is a repeat too.
    const again = await ctx.app.ingest.ingest(known, [
      { ts: lateTs, channels: [{ ch: 1, v: 7.25 }], mode: 'normal' },
    ]);
    expect(again).toMatchObject({ stored: 0, duplicates: 1 });
  }, 60_000);

  it('truncates a monthly partition once all its readings are packed', async () => {
    await ensureReadingPartitions(ctx.app.db, new Date(Date.UTC(2026, 7, 15)), 0, 0);
    const start = Date.UTC(2026, 7, 30);
    const { sensorId } = await seed(1, start);
    expect(start + DAY).toBeLessThan(packedBefore(now));
    const result = await packOldReadings(ctx.app.db, now);
    expect(result.truncated).toContain('readings_2026_08');
    const [left] = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from readings_2026_08`,
    );
    expect(left!.n).toBe(0);
    expect(await counts(sensorId)).toMatchObject({ hot: 0, packed: 288 });
  }, 60_000);

  it('keeps a minute rollup of the last week that answers a day of 10-second readings like the readings, and prunes it after', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const sensorId = device.sensors[0]!.id;
    const token = await login(ctx.app, company.admin.account);
    const start = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 7 * 60_000 + 13_000;
    const values = Array.from({ length: 8640 }, (_, i) => Math.round((5 + 2 * Math.sin(i / 40)) * 100) / 100);
    values[3001] = 17.5;
    values[6002] = -4.25;
    const records = values.map((v, i) => ({
      ts: start + i * 10_000,
      channels: [{ ch: 1, v }],
      mode: 'normal' as const,
    }));
    for (let i = 0; i < records.length; i += 2000)
      await ctx.app.ingest.ingest(known, records.slice(i, i + 2000));
    const [minutes] = await queryRows<{ n: number; readings: number }>(
      ctx.app.db,
      sql`select count(*)::int as n, sum(n)::int as readings from readings_minute where sensor_id = ${sensorId}`,
    );
    expect(minutes).toEqual({ n: 1441, readings: 8640 });

    const end = start + DAY - 1;
    const sampled = await history(token, sensorId, start, end, 600);
    expect(sampled.points.length).toBeLessThanOrEqual(600);
    expect(sampled.points).toContainEqual([start + 3001 * 10_000, 17.5]);
    expect(sampled.points).toContainEqual([start + 6002 * 10_000, -4.25]);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(sampled).toMatchObject({ min: -4.25, max: 17.5 });
    expect(sampled.avg).toBeCloseTo(mean, 2);
    expect(sampled.mkt).toBeCloseTo(meanKineticTemperature(values)!, 2);

    // A week later the minute rows are gone and the same range reads the readings instead.
    const later = Date.now() + 8 * DAY;
    expect((await packOldReadings(ctx.app.db, later)).prunedMinutes).toBeGreaterThanOrEqual(1441);
    const [left] = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from readings_minute where sensor_id = ${sensorId}`,
    );
    expect(left!.n).toBe(0);
    const [stats] = await queryRows<{ n: number; min: number; max: number }>(
      ctx.app.db,
      sql`select sum(n)::int as n, min(min)::float8 as min, max(max)::float8 as max
          from (${rangeRows(sensorId, start, end, 'minute', 10_000, later)}) r`,
    );
    expect(stats).toEqual({ n: 8640, min: -4.25, max: 17.5 });
  }, 60_000);
});
