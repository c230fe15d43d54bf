import type { HistoryData } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { bucketing } from './history.service';
import { meanKineticTemperature, mktFromSum } from './mkt';
import { DAY, HOUR } from './reading-sources';

describe('mean kinetic temperature', () => {
  it('equals the temperature of a constant series and weighs warm excursions more than the mean', () => {
    expect(meanKineticTemperature([5, 5, 5])).toBeCloseTo(5, 6);
    const series = [2, 2, 2, 2, 25];
    const mean = series.reduce((a, b) => a + b) / series.length;
    expect(meanKineticTemperature(series)!).toBeGreaterThan(mean);
    // By hand: ΔH/R = 10 000 K; mean of e^(-10000/293.15) and e^(-10000/303.15) is 3.13e-15;
    // -ln of that is 33.40, so MKT = 10000 / 33.40 = 299.41 K = 26.26 °C.
    expect(meanKineticTemperature([20, 30])!).toBeCloseTo(26.26, 1);
    expect(mktFromSum(0, 0, 10_000)).toBeNull();
  });
});

/**
 * What a chart of `maxPoints` should show, from the raw readings: each bucket's lowest and highest
 * reading at its earliest instant, in time order.
 */
function expectedExtremes(readings: [number, number][], origin: number, width: number) {
  const buckets = new Map<number, { lo: [number, number]; hi: [number, number] }>();
  for (const reading of readings) {
    const k = Math.floor((reading[0] - origin) / width);
    const bucket = buckets.get(k);
    if (!bucket) buckets.set(k, { lo: reading, hi: reading });
    else {
      if (reading[1] < bucket.lo[1]) bucket.lo = reading;
      if (reading[1] > bucket.hi[1]) bucket.hi = reading;
    }
  }
  const byInstant = new Map<number, [number, number]>();
  for (const { lo, hi } of buckets.values()) byInstant.set(lo[0], lo).set(hi[0], hi);
  return [...byInstant.values()].sort((a, b) => a[0] - b[0]);
}

/** A server figure rounded to two decimals, against the exact one. */
const expectRounded = (actual: number | null, exact: number) =>
  expect(Math.abs(actual! - exact)).toBeLessThanOrEqual(0.005 + 1e-6);

describe('historyData', () => {
  const ctx = useTestApp();

  /** Stores a series through the real ingest path, which also keeps the hourly rollup. */
  async function seedSeries(values: number[], startMs: number, stepMs: number) {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const records = values.map((v, i) => ({
      ts: startMs + i * stepMs,
      channels: [{ ch: 1, v }],
      mode: 'normal' as const,
    }));
    for (let i = 0; i < records.length; i += 1000)
      await ctx.app.ingest.ingest(known, records.slice(i, i + 1000));
    const token = await login(ctx.app, company.admin.account);
    return { sensorId: String(device.sensors[0]!.id), token };
  }

  it('returns every point with min, max, average and MKT when maxPoints is absent', async () => {
    const start = Date.UTC(2026, 10, 1);
    const values = [4, 5, 6, 5, 4];
    const { sensorId, token } = await seedSeries(values, start, 300_000);
    const { body } = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: start, endTime: start + 3_600_000 },
      { token },
    );
    expect(body.data.points).toEqual(values.map((v, i) => [start + i * 300_000, v]));
    expect(body.data).toMatchObject({ min: 4, max: 6, avg: 4.8 });
    expect(body.data.mkt).toBeCloseTo(meanKineticTemperature(values)!, 2);
  });

  it('downsamples to at most maxPoints and keeps every bucket’s minimum and maximum', async () => {
    const start = Date.UTC(2026, 10, 2);
    const values = Array.from({ length: 2000 }, (_, i) => 5 + Math.sin(i / 10));
    values[777] = 19.5; // a short excursion
    values[1500] = -3.25; // and a dip
    const { sensorId, token } = await seedSeries(values, start, 60_000);
    const { body } = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: start, endTime: start + 2000 * 60_000, maxPoints: 100 },
      { token },
    );
    expect(body.data.points.length).toBeLessThanOrEqual(100);
    expect(body.data.points.length).toBeGreaterThan(50);
    expect(body.data.points).toContainEqual([start + 777 * 60_000, 19.5]);
    expect(body.data.points).toContainEqual([start + 1500 * 60_000, -3.25]);
    const times = body.data.points.map((p) => p[0]);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(body.data).toMatchObject({ min: -3.25, max: 19.5 });
  });

  it('answers a month from the hourly rollup with the same statistics as the raw readings and every extreme', async () => {
    const start = Date.UTC(2026, 9, 1, 0, 2, 30);
    const step = 5 * 60_000;
    const values = Array.from(
      { length: 30 * 288 },
      (_, i) => Math.round((5 + 1.5 * Math.sin(i / 7)) * 100) / 100,
    );
    values[4321] = 14.75;
    values[7777] = -6.5;
    const { sensorId, token } = await seedSeries(values, start, step);
    const end = start + values.length * step - 60_000;
    const { body } = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: start, endTime: end, maxPoints: 200 },
      { token },
    );
    expect(body.data.points.length).toBeLessThanOrEqual(202);
    expect(body.data.points).toContainEqual([start + 4321 * step, 14.75]);
    expect(body.data.points).toContainEqual([start + 7777 * step, -6.5]);
    const times = body.data.points.map((p) => p[0]);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(body.data.min).toBe(-6.5);
    expect(body.data.max).toBe(14.75);
    expect(body.data.avg).toBeCloseTo(mean, 1);
    expect(body.data.mkt).toBeCloseTo(meanKineticTemperature(values)!, 1);
    // The full series (no maxPoints) is every stored reading.
    const all = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: start, endTime: end },
      { token },
    );
    expect(all.body.data.points).toHaveLength(values.length);
  }, 60_000);

  it('computes MKT with the activation energy a request names, and refuses one out of range by name', async () => {
    const start = Date.UTC(2026, 10, 3);
    const values = [2, 8, 25, 4];
    const { sensorId, token } = await seedSeries(values, start, 300_000);
    const range = { sensorId, startTime: start, endTime: start + 3_600_000 };
    const custom = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { ...range, activationEnergy: 60 },
      { token },
    );
    expect(custom.body.data.mkt).toBeCloseTo(meanKineticTemperature(values, 60)!, 2);
    const standard = await call<HistoryData>(ctx.app, '/api/device/historyData', range, { token });
    expect(standard.body.data.mkt).toBeCloseTo(meanKineticTemperature(values)!, 2);
    expect(custom.body.data.mkt).not.toBeCloseTo(standard.body.data.mkt!, 1);
    const refused = await call(
      ctx.app,
      '/api/device/historyData',
      { ...range, activationEnergy: 5 },
      { token },
    );
    expect(refused.body.msgCode).toBe(500);
    expect(refused.body.msgContent).toContain('Activation energy');
  });

  it('gives the raw readings’ statistics and bucket extremes when statistics and buckets read the same level', async () => {
    const values = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => Math.round((5 + 2 * Math.sin(i / 9) + (i % 7) / 10) * 100) / 100,
      );

    // Both raw: a custom activation energy needs raw statistics, and 10 minutes in 25 buckets is raw too.
    const rawStart = Date.UTC(2026, 9, 5, 8, 0, 3);
    const rawValues = values(120);
    rawValues[61] = 12.25;
    const raw = await seedSeries(rawValues, rawStart, 5_000);
    const rawEnd = rawStart + 600_000 - 1;
    expect(bucketing(rawStart, rawEnd, 25)).toEqual({ level: 'raw', origin: rawStart, width: 24_000 });
    const rawResult = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId: raw.sensorId, startTime: rawStart, endTime: rawEnd, maxPoints: 50, activationEnergy: 60 },
      { token: raw.token },
    );
    const rawReadings = rawValues.map((v, i): [number, number] => [rawStart + i * 5_000, v]);
    expect(rawResult.body.data.points).toEqual(expectedExtremes(rawReadings, rawStart, 24_000));
    expect(rawResult.body.data.points).toContainEqual([rawStart + 61 * 5_000, 12.25]);
    expect(rawResult.body.data.min).toBe(Math.min(...rawValues));
    expect(rawResult.body.data.max).toBe(12.25);
    expectRounded(rawResult.body.data.avg, rawValues.reduce((a, b) => a + b, 0) / rawValues.length);
    expectRounded(rawResult.body.data.mkt, meanKineticTemperature(rawValues, 60)!);

    // Both daily: eleven days at 10 points are 5 buckets of whole days, read from the daily rollup
    // with hourly and raw rows at the unaligned edges.
    const dayStart = Date.UTC(2026, 7, 3, 5, 7, 0);
    const step = 10 * 60_000;
    const dayValues = values(11 * 144);
    dayValues[900] = -7.5;
    const day = await seedSeries(dayValues, dayStart, step);
    const dayEnd = dayStart + 11 * DAY - HOUR;
    const origin = Date.UTC(2026, 7, 3);
    expect(bucketing(dayStart, dayEnd, 5)).toEqual({ level: 'day', origin, width: 3 * DAY });
    const dayResult = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId: day.sensorId, startTime: dayStart, endTime: dayEnd, maxPoints: 10 },
      { token: day.token },
    );
    const dayReadings = dayValues
      .map((v, i): [number, number] => [dayStart + i * step, v])
      .filter(([ts]) => ts <= dayEnd);
    const shown = dayReadings.map(([, v]) => v);
    expect(dayResult.body.data.points).toEqual(expectedExtremes(dayReadings, origin, 3 * DAY));
    expect(dayResult.body.data.points).toContainEqual([dayStart + 900 * step, -7.5]);
    expect(dayResult.body.data.min).toBe(-7.5);
    expect(dayResult.body.data.max).toBe(Math.max(...shown));
    expectRounded(dayResult.body.data.avg, shown.reduce((a, b) => a + b, 0) / shown.length);
    expectRounded(dayResult.body.data.mkt, meanKineticTemperature(shown)!);
  }, 60_000);

  it('answers an empty range with no points and null statistics, and rejects an inverted range', async () => {
    const { sensorId, token } = await seedSeries([1], Date.UTC(2026, 0, 1), 1000);
    const empty = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: 1000, endTime: 2000 },
      { token },
    );
    expect(empty.body.data).toEqual({ points: [], min: null, max: null, avg: null, mkt: null });
    const inverted = await call(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: 2000, endTime: 1000 },
      { token },
    );
    expect(inverted.body).toEqual({
      msgCode: 500,
      msgContent: 'End time must be after the start time',
      data: null,
    });
  });
});

describe('historyData values', () => {
  const ctx = useTestApp();

  it('come back as the logger sent them, not as widened floats', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const start = Date.UTC(2026, 5, 1);
    const values = [5.3, -18.7, 2.1, 7.9];
    await ctx.app.ingest.ingest(
      known,
      values.map((v, i) => ({ ts: start + i * 60_000, channels: [{ ch: 1, v }], mode: 'normal' as const })),
    );
    const token = await login(ctx.app, company.admin.account);
    const sensorId = String(device.sensors[0]!.id);
    const all = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: start, endTime: start + 3_600_000 },
      { token },
    );
    expect(all.body.data.points.map((p) => p[1])).toEqual(values);
    const sampled = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId, startTime: start, endTime: start + 3_600_000, maxPoints: 2 },
      { token },
    );
    expect(sampled.body.data.points.map((p) => p[1])).toEqual([-18.7, 7.9]);
  });
});
