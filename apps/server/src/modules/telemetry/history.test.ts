import type { HistoryData } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { meanKineticTemperature, mktFromSum } from './mkt';

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

describe('historyData', () => {
  const ctx = useTestApp();

  async function seedSeries(values: number[], startMs: number, stepMs: number) {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const sensorId = device.sensors[0]!.id;
    const ts = values.map((_, i) => startMs + i * stepMs);
    await ctx.app.db.execute(sql`
      insert into readings (sensor_id, ts, value)
      select ${sensorId}, to_timestamp(t / 1000.0), v
      from unnest(${`{${ts.join(',')}}`}::float8[], ${`{${values.join(',')}}`}::real[]) as u(t, v)`);
    const token = await login(ctx.app, company.admin.account);
    return { sensorId: String(sensorId), token };
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
