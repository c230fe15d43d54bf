import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { devices, sensors } from '../devices/devices.table';
import { readings } from '../telemetry/readings.table';

function post(app: FastifyInstance, serial: string, key: string, body: unknown, path = '/device/v1/up') {
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      authorization: `Basic ${Buffer.from(`${serial}:${key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('HTTP ingest (device protocol v1)', () => {
  const ctx = useTestApp();

  async function setup(channels?: { type: string; unit: string; min: number; max: number }[]) {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id, { channels });
    return { company, device };
  }

  it('stores readings, answers after commit, and stores a repeated reading once', async () => {
    const { device } = await setup();
    const now = Date.now();
    const payload = { records: [{ ts: now, channels: [{ ch: 1, v: 4.2 }], battery: 80, power: 'mains' }] };
    const first = await post(ctx.app, device.serial, device.deviceKey, payload);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      ok: true,
      stored: 1,
      duplicates: 0,
      unknownChannels: [],
      refusedRecords: [],
    });
    const rows = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ value: expect.closeTo(4.2, 5), backfilled: false });
    expect(rows[0]!.ts.getTime()).toBe(now);

    const again = await post(ctx.app, device.serial, device.deviceKey, payload);
    expect(again.json()).toMatchObject({ stored: 0, duplicates: 1 });
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
    ).toHaveLength(1);

    const [sensor] = await ctx.app.db.select().from(sensors).where(eq(sensors.id, device.sensors[0]!.id));
    expect(sensor!.value).toBeCloseTo(4.2, 5);
    const [row] = await ctx.app.db.select().from(devices).where(eq(devices.serial, device.serial));
    expect(row).toMatchObject({ state: 1, battery: 80, power: 'mains', mode: 'normal' });
  });

  it('accepts back-filled and out-of-order records, flags them, and keeps the newest value as current', async () => {
    const { device } = await setup();
    const now = Date.now();
    const sensorId = device.sensors[0]!.id;
    await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: now, channels: [{ ch: 1, v: 5 }] }],
    });
    const hourAgo = Array.from({ length: 12 }, (_, i) => ({
      ts: now - 3_600_000 + i * 300_000,
      channels: [{ ch: 1, v: 3 + i / 10 }],
    }));
    const response = await post(ctx.app, device.serial, device.deviceKey, { records: hourAgo.reverse() });
    expect(response.json()).toMatchObject({ stored: 12, duplicates: 0 });
    const rows = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, sensorId));
    expect(rows).toHaveLength(13);
    expect(rows.filter((r) => r.backfilled)).toHaveLength(12);
    const [sensor] = await ctx.app.db.select().from(sensors).where(eq(sensors.id, sensorId));
    expect(sensor!.value).toBe(5);
    expect(sensor!.updateTime!.getTime()).toBe(now);
  });

  it('reads a 10-digit timestamp as seconds', async () => {
    const { device } = await setup();
    const seconds = Math.floor(Date.now() / 1000);
    await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: seconds, channels: [{ ch: 1, v: 1 }] }],
    });
    const [row] = await ctx.app.db
      .select()
      .from(readings)
      .where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(row!.ts.getTime()).toBe(seconds * 1000);
  });

  it('answers 401 for a wrong key, 404 for an unknown serial, 400 with a reason for a bad payload', async () => {
    const { device } = await setup();
    const good = { records: [{ ts: Date.now(), channels: [{ ch: 1, v: 1 }] }] };
    expect((await post(ctx.app, device.serial, 'wrong', good)).statusCode).toBe(401);
    const noAuth = await ctx.app.inject({ method: 'POST', url: '/device/v1/up', payload: good });
    expect(noAuth.statusCode).toBe(401);
    const unknown = await post(ctx.app, 'NOSUCH1', 'x', good);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toContain('NOSUCH1');
    const cases: [unknown, string][] = [
      [{ records: [] }, 'records: '],
      [{ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 'warm' }] }] }, 'records.0.channels.0.v'],
      [{ records: [{ channels: [{ ch: 1, v: 1 }] }] }, 'records.0.ts'],
      [{ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 1 }], mode: 'party' }] }, 'records.0.mode'],
      ['{"records": [', 'not valid JSON'],
    ];
    for (const [body, reason] of cases) {
      const response = await post(ctx.app, device.serial, device.deviceKey, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error ?? response.json().msgContent, JSON.stringify(body)).toContain(
        reason.replace('not valid JSON', reason),
      );
    }
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
    ).toHaveLength(0);
  });

  it('records nothing in service mode, records in loading and defrost, and marks out-of-range values abnormal', async () => {
    const { device } = await setup([{ type: 'temperature', unit: '°C', min: -40, max: 85 }]);
    const now = Date.now();
    const service = await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: now - 2000, channels: [{ ch: 1, v: 2 }], mode: 'service' }],
    });
    expect(service.json()).toMatchObject({ stored: 0 });
    let [row] = await ctx.app.db.select().from(devices).where(eq(devices.serial, device.serial));
    expect(row).toMatchObject({ mode: 'service', state: 5 });

    await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: now - 1000, channels: [{ ch: 1, v: 9 }], mode: 'defrost' }],
    });
    [row] = await ctx.app.db.select().from(devices).where(eq(devices.serial, device.serial));
    expect(row).toMatchObject({ mode: 'defrost', state: 1 });

    await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: now, channels: [{ ch: 1, v: 120 }] }],
    });
    [row] = await ctx.app.db.select().from(devices).where(eq(devices.serial, device.serial));
    expect(row!.state).toBe(3);
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
    ).toHaveLength(2);
  });

  it('stores known channels and names the unknown ones', async () => {
    const { device } = await setup();
    const response = await post(ctx.app, device.serial, device.deviceKey, {
      records: [
        {
          ts: Date.now(),
          channels: [
            { ch: 1, v: 1 },
            { ch: 7, v: 2 },
          ],
        },
      ],
    });
    expect(response.json()).toEqual({
      ok: true,
      stored: 1,
      duplicates: 0,
      unknownChannels: [7],
      refusedRecords: [],
    });
  });

  it('stores only the protocol’s event names and refuses any other, listing the known ones', async () => {
    const { device } = await setup();
    const { deviceEvents } = await import('../devices/devices.table');
    const known = await post(
      ctx.app,
      device.serial,
      device.deviceKey,
      { ts: Date.now(), event: 'doorOpen' },
      '/device/v1/event',
    );
    expect(known.statusCode).toBe(200);
    for (const event of ['hacked', '<script>alert(1)</script>', 'PowerOff', '']) {
      const response = await post(
        ctx.app,
        device.serial,
        device.deviceKey,
        { ts: Date.now(), event },
        '/device/v1/event',
      );
      expect(response.statusCode, event).toBe(400);
      expect(response.json().error, event).toMatch(
        /^event: .*powerOff, powerOn, lowBattery, call, doorOpen, doorClose, reboot/,
      );
    }
    const stored = await ctx.app.db
      .select()
      .from(deviceEvents)
      .where(eq(deviceEvents.deviceId, Number(device.id)));
    expect(stored.map((e) => e.event)).toEqual(['doorOpen']);
  });

  it('stores events once and rejects the old key after a key reset', async () => {
    const { company, device } = await setup();
    const event = { ts: Date.now(), event: 'powerOff' };
    expect((await post(ctx.app, device.serial, device.deviceKey, event, '/device/v1/event')).statusCode).toBe(
      200,
    );
    expect((await post(ctx.app, device.serial, device.deviceKey, event, '/device/v1/event')).statusCode).toBe(
      200,
    );
    const { deviceEvents } = await import('../devices/devices.table');
    const events = await ctx.app.db
      .select()
      .from(deviceEvents)
      .where(and(eq(deviceEvents.event, 'powerOff')));
    expect(events.filter((e) => String(e.deviceId) === device.id)).toHaveLength(1);

    const token = await login(ctx.app, company.admin.account);
    const reset = await call<{ deviceKey: string }>(
      ctx.app,
      '/api/device/resetDeviceKey',
      { id: device.id },
      { token },
    );
    const reading = { records: [{ ts: Date.now(), channels: [{ ch: 1, v: 1 }] }] };
    expect((await post(ctx.app, device.serial, device.deviceKey, reading)).statusCode).toBe(401);
    expect((await post(ctx.app, device.serial, reset.body.data.deviceKey, reading)).statusCode).toBe(200);
  });
});

describe('committed readings are announced after commit', () => {
  const ctx = useTestApp();

  it('tells listeners about each newly stored reading once, with its mode and back-fill flag', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id, {
      channels: [
        { type: 'temperature', unit: '°C', min: -40, max: 85 },
        { type: 'humidity', unit: '%RH', min: 0, max: 100 },
      ],
    });
    const seen: { channel: number; value: number; mode: string; backfilled: boolean }[] = [];
    const stop = ctx.app.ingest.onCommitted((readings) => {
      for (const r of readings)
        seen.push({ channel: r.channel, value: r.value, mode: r.mode, backfilled: r.backfilled });
    });
    const now = Date.now();
    const body = {
      records: [
        {
          ts: now,
          channels: [
            { ch: 1, v: 7.5 },
            { ch: 2, v: 60 },
          ],
          mode: 'defrost',
        },
        { ts: now - 86_400_000, channels: [{ ch: 1, v: 4 }] },
      ],
    };
    await post(ctx.app, device.serial, device.deviceKey, body);
    await post(ctx.app, device.serial, device.deviceKey, body);
    stop();
    expect(seen).toEqual([
      { channel: 1, value: 7.5, mode: 'defrost', backfilled: false },
      { channel: 2, value: 60, mode: 'defrost', backfilled: false },
      { channel: 1, value: 4, mode: 'normal', backfilled: true },
    ]);
  });
});
