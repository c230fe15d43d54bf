import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { devices } from '../devices/devices.table';

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
});
