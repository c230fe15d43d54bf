import { asc, eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { devices } from '../devices/devices.table';
import { devicePositions } from '../telemetry/readings.table';
import { writeIngestBatch } from './write-batch';

function post(app: FastifyInstance, serial: string, key: string, body: unknown) {
  return app.inject({
    method: 'POST',
    url: '/device/v1/up',
    headers: {
      authorization: `Basic ${Buffer.from(`${serial}:${key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
}

describe('GPS position in device records (map mode)', () => {
  const ctx = useTestApp();

  async function setup() {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    return { company, device, as: { token, companyId: company.id } };
  }

  const positionOf = async (serial: string) => {
    const [row] = await ctx.app.db
      .select({ lat: devices.lat, lng: devices.lng })
      .from(devices)
      .where(eq(devices.serial, serial));
    return row;
  };

  it('stores the newest record position on the device and shows it in the detail and list', async () => {
    const { device, as } = await setup();
    const now = Date.now();
    const response = await post(ctx.app, device.serial, device.deviceKey, {
      records: [
        { ts: now, channels: [{ ch: 1, v: 4 }], lat: 3.139, lng: 101.6869 },
        // Older, sent later in the same message: not the latest position.
        { ts: now - 60_000, channels: [{ ch: 1, v: 4 }], lat: 1.3521, lng: 103.8198 },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(await positionOf(device.serial)).toEqual({ lat: 3.139, lng: 101.6869 });

    const detail = await call<{ lat: number | null; lng: number | null }>(
      ctx.app,
      '/api/device/deviceDetail',
      { id: device.id },
      as,
    );
    expect(detail.body.data).toMatchObject({ lat: 3.139, lng: 101.6869 });
    const page = await call<{ list: { id: string; lat: number | null; lng: number | null }[] }>(
      ctx.app,
      '/api/device/pageDevices',
      { pageNum: 1, pageSize: 10 },
      as,
    );
    expect(page.body.data.list.find((d) => d.id === device.id)).toMatchObject({ lat: 3.139, lng: 101.6869 });

    // A record without a position keeps the last one.
    await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: now + 60_000, channels: [{ ch: 1, v: 4 }] }],
    });
    expect(await positionOf(device.serial)).toEqual({ lat: 3.139, lng: 101.6869 });
  });

  it('a device that never sent a position has none; a lone lat or lng is ignored, readings kept', async () => {
    const { device, as } = await setup();
    const detail = await call<{ lat: number | null; lng: number | null }>(
      ctx.app,
      '/api/device/deviceDetail',
      { id: device.id },
      as,
    );
    expect(detail.body.data).toMatchObject({ lat: null, lng: null });
    const lone = await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: Date.now(), channels: [{ ch: 1, v: 4 }], lat: 3.1 }],
    });
    expect(lone.statusCode).toBe(200);
    expect(lone.json()).toMatchObject({ stored: 1 });
    expect(await positionOf(device.serial)).toEqual({ lat: null, lng: null });
  });

  it('refuses a position out of range with a reason naming the field', async () => {
    const { device } = await setup();
    for (const [position, field] of [
      [{ lat: 91, lng: 10 }, 'records.0.lat'],
      [{ lat: 10, lng: -181 }, 'records.0.lng'],
      [{ lat: '3.1', lng: 10 }, 'records.0.lat'],
    ] as const) {
      const response = await post(ctx.app, device.serial, device.deviceKey, {
        records: [{ ts: Date.now(), channels: [{ ch: 1, v: 4 }], ...position }],
      });
      expect(response.statusCode, JSON.stringify(position)).toBe(400);
      expect(response.json().error).toContain(field);
    }
    expect(await positionOf(device.serial)).toEqual({ lat: null, lng: null });
  });

  const trackOf = (deviceId: number) =>
    ctx.app.db
      .select({ ts: devicePositions.ts, lat: devicePositions.lat, lng: devicePositions.lng })
      .from(devicePositions)
      .where(eq(devicePositions.deviceId, deviceId))
      .orderBy(asc(devicePositions.ts))
      .then((rows) => rows.map((r) => ({ ...r, ts: r.ts.getTime() })));

  it('keeps every position a device posts as its track, once per instant, service mode aside', async () => {
    const { device } = await setup();
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 60 * 60_000;
    const sent = await post(ctx.app, device.serial, device.deviceKey, {
      records: [
        { ts: t0 + 60_000, channels: [{ ch: 1, v: 4 }], lat: 22.55, lng: 114.01 },
        { ts: t0, channels: [{ ch: 1, v: 4 }], lat: 22.53, lng: 113.93 },
        { ts: t0 + 120_000, channels: [{ ch: 1, v: 4 }] },
        { ts: t0 + 180_000, channels: [{ ch: 1, v: 4 }], lat: 22.6 },
        { ts: t0 + 240_000, channels: [{ ch: 1, v: 4 }], lat: 22.7, lng: 114.2, mode: 'service' },
      ],
    });
    expect(sent.statusCode).toBe(200);
    // Sent again with another position: the stored instant keeps its first one.
    const again = await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: t0, channels: [{ ch: 1, v: 4 }], lat: 1, lng: 1 }],
    });
    expect(again.json()).toMatchObject({ stored: 0, duplicates: 1 });
    // A record of only a channel the device lacks stores no reading; its position is kept.
    const unknown = await post(ctx.app, device.serial, device.deviceKey, {
      records: [{ ts: t0 + 300_000, channels: [{ ch: 9, v: 4 }], lat: 22.58, lng: 114.09 }],
    });
    expect(unknown.statusCode).toBe(200);
    expect(await trackOf(Number(device.id))).toEqual([
      { ts: t0, lat: 22.53, lng: 113.93 },
      { ts: t0 + 60_000, lat: 22.55, lng: 114.01 },
      { ts: t0 + 300_000, lat: 22.58, lng: 114.09 },
    ]);
  });

  it('writes the track in the batch statement itself, and nothing of it without positions', async () => {
    const { device } = await setup();
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const dialect = new PgDialect();
    const write = async (records: Parameters<typeof writeIngestBatch>[1][number]['records']) => {
      const texts: string[] = [];
      await ctx.app.db.transaction(async (tx) => {
        const execute = tx.execute;
        tx.execute = ((query: SQL) => {
          texts.push(dialect.sqlToQuery(query).sql);
          return execute.call(tx, query);
        }) as typeof tx.execute;
        await writeIngestBatch(tx, [{ device: known, records }]);
        // node-postgres commits through the same call: only the batch's own statements count.
        tx.execute = execute;
      });
      return texts;
    };
    const ts = Date.now();
    const plain = await write([{ ts, channels: [{ ch: 1, v: 4 }], mode: 'normal' }]);
    expect(plain).toHaveLength(1);
    expect(plain[0]).not.toContain('device_positions');
    const placed = await write([
      { ts: ts + 1000, channels: [{ ch: 1, v: 4 }], mode: 'normal', lat: 3.1, lng: 101.6 },
      { ts: ts + 2000, channels: [{ ch: 1, v: 4 }], mode: 'normal', lat: 3.2, lng: 101.7 },
    ]);
    expect(placed).toHaveLength(1);
    expect(placed[0]).toContain('insert into device_positions');
    expect((await trackOf(Number(device.id))).map((p) => p.lat)).toEqual([3.1, 3.2]);
  });
});
