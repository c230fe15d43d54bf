import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { deviceEvents, sensors } from '../devices/devices.table';
import { readings } from '../telemetry/readings.table';
import { DEFAULT_DEVICE_LIMITS } from './device-limits';

function post(app: FastifyInstance, serial: string, key: string, body: unknown, path = '/device/v1/up') {
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      authorization: `Basic ${Buffer.from(`${serial}:${key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
}

const MINUTE = 60_000;
const DAY = 86_400_000;

describe('the instants accepted from devices (DEVICE_CLOCK_AHEAD_SECONDS, DEVICE_BACKFILL_DAYS)', () => {
  // A one-minute lead and a two-day horizon, so both edges can be tested with ordinary instants.
  const ctx = useTestApp({
    deviceLimits: { ...DEFAULT_DEVICE_LIMITS, window: { maxAheadMs: MINUTE, backfillMs: 2 * DAY } },
  });

  async function newDevice() {
    const company = await buildCompany(ctx.app.db);
    return buildDevice(ctx.app.db, company.id);
  }
  const storedInstants = async (sensorId: number) =>
    (await ctx.app.db.select().from(readings).where(eq(readings.sensorId, sensorId))).map((r) =>
      r.ts.getTime(),
    );

  it('refuses a message dated too far ahead, before the horizon or beyond any date, with the reason', async () => {
    const device = await newDevice();
    const cases: [number, RegExp][] = [
      [Date.now() + 10 * MINUTE, /^records\.0\.ts: .* is more than 60 s ahead of the server clock/],
      [Date.UTC(2126, 0, 1), /^records\.0\.ts: 2126-01-01T00:00:00\.000Z is more than 60 s ahead/],
      [8.64e15, /^records\.0\.ts: \+275760-09-13T00:00:00\.000Z is more than 60 s ahead/],
      [1e300, /^records\.0\.ts: 1e\+300 is more than 60 s ahead/],
      [Date.now() - 3 * DAY, /^records\.0\.ts: .* is older than the back-fill horizon of 2 days/],
      [1_000_000, /^records\.0\.ts: 1970-01-12T13:46:40\.000Z is older than the back-fill horizon/],
    ];
    for (const [ts, reason] of cases) {
      const response = await post(ctx.app, device.serial, device.deviceKey, {
        records: [{ ts, channels: [{ ch: 1, v: 5 }] }],
      });
      expect(response.statusCode, String(ts)).toBe(400);
      expect(response.json().error, String(ts)).toMatch(reason);
    }
    expect(await storedInstants(device.sensors[0]!.id)).toEqual([]);
  });

  it('stores the records inside the window and names the refused ones', async () => {
    const device = await newDevice();
    const now = Date.now();
    const response = await post(ctx.app, device.serial, device.deviceKey, {
      records: [
        { ts: now - DAY, channels: [{ ch: 1, v: 4 }] },
        { ts: Date.UTC(2126, 0, 1), channels: [{ ch: 1, v: 30 }] },
        { ts: now + 30_000, channels: [{ ch: 1, v: 5 }] },
      ],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ ok: true, stored: 2 });
    expect(body.refusedRecords).toEqual([
      { index: 1, error: expect.stringMatching(/^records\.1\.ts: 2126-/) },
    ]);
    expect((await storedInstants(device.sensors[0]!.id)).sort()).toEqual([now - DAY, now + 30_000]);
  });

  it('refuses an event dated beyond the window (8.64e15 and past the largest date too) with 400, not 500', async () => {
    const device = await newDevice();
    for (const ts of [8.64e15, 8.64e15 + 1000, 1e300, Date.now() - 3 * DAY]) {
      const response = await post(
        ctx.app,
        device.serial,
        device.deviceKey,
        { ts, event: 'powerOff' },
        '/device/v1/event',
      );
      expect(response.statusCode, String(ts)).toBe(400);
      expect(response.json().error, String(ts)).toMatch(
        /^ts: .*(ahead of the server clock|back-fill horizon)/,
      );
    }
    const stored = await ctx.app.db
      .select()
      .from(deviceEvents)
      .where(eq(deviceEvents.deviceId, Number(device.id)));
    expect(stored).toEqual([]);
  });

  it('does not let a current value dated in the future (stored before the window) hide newer readings', async () => {
    const device = await newDevice();
    const sensorId = device.sensors[0]!.id;
    // As a reading dated 2126 left it before the window existed.
    await ctx.app.db.execute(
      sql`update sensors set value = 4, update_time = '2126-01-01T00:00:00Z' where id = ${sensorId}`,
    );
    const now = Date.now();
    const response = await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: now, channels: [{ ch: 1, v: 12.5 }] }],
    });
    expect(response.statusCode).toBe(200);
    const [sensor] = await ctx.app.db.select().from(sensors).where(eq(sensors.id, sensorId));
    expect(sensor!.value).toBe(12.5);
    expect(sensor!.updateTime!.getTime()).toBe(now);
    const [row] = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, sensorId));
    // The reading is the sensor's newest real one, not a back-fill behind the year 2126.
    expect(row!.backfilled).toBe(false);
  });
});
