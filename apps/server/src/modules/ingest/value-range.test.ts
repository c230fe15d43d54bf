import type { UpRecord } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { readings } from '../telemetry/readings.table';
import { UnstorableMessage } from './storage-failure';

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

describe('channel values are checked against what a reading column holds (32-bit float)', () => {
  const ctx = useTestApp();

  async function newDevice() {
    const company = await buildCompany(ctx.app.db);
    return buildDevice(ctx.app.db, company.id);
  }

  const storedValues = async (sensorId: number) =>
    (await ctx.app.db.select().from(readings).where(eq(readings.sensorId, sensorId))).map((r) => r.value);

  it('answers 400 naming the field for a value beyond 32-bit float, and stores nothing of it', async () => {
    const device = await newDevice();
    for (const v of [1e300, 3e39, -1e300, 3.5e38]) {
      const response = await post(ctx.app, device.serial, device.deviceKey, {
        records: [{ ts: Date.now(), channels: [{ ch: 1, v }] }],
      });
      expect(response.statusCode, String(v)).toBe(400);
      expect(response.json().error, String(v)).toMatch(/^records\.0\.channels\.0\.v: .*32-bit/);
    }
    expect(await storedValues(device.sensors[0]!.id)).toEqual([]);
  });

  it('stores the largest float and a value too small for a float (1e-300) as 0', async () => {
    const device = await newDevice();
    const now = Date.now();
    const response = await post(ctx.app, device.serial, device.deviceKey, {
      records: [
        { ts: now - 1000, channels: [{ ch: 1, v: 3.4e38 }] },
        { ts: now, channels: [{ ch: 1, v: 1e-300 }] },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ stored: 2 });
    expect((await storedValues(device.sensors[0]!.id)).sort()).toEqual([0, expect.closeTo(3.4e38, -32)]);
  });

  it('lets no message fail another: two devices of two companies in one batch, one refused by the database', async () => {
    const poison = await newDevice();
    const healthy = await newDevice();
    const directory = ctx.app.deviceDirectory;
    const [poisonDevice, healthyDevice, warmUp] = [
      (await directory.find(poison.serial))!,
      (await directory.find(healthy.serial))!,
      (await directory.find((await newDevice()).serial))!,
    ];
    expect(poisonDevice.companyId).not.toBe(healthyDevice.companyId);
    const record = (v: number): UpRecord => ({ ts: Date.now(), channels: [{ ch: 1, v }], mode: 'normal' });
    // The payload checks refuse 1e300 at the door; calling the ingest directly is how a value the
    // checks let through would arrive. The first message keeps the writer busy, so the next two
    // wait and are written in one transaction.
    const first = ctx.app.ingest.ingest(warmUp, [record(1)]);
    const bad = ctx.app.ingest.ingest(poisonDevice, [record(1e300)]);
    const good = ctx.app.ingest.ingest(healthyDevice, [record(4.5)]);
    const [firstOutcome, badOutcome, goodOutcome] = await Promise.allSettled([first, bad, good]);
    expect(firstOutcome.status).toBe('fulfilled');
    expect(goodOutcome).toMatchObject({ status: 'fulfilled', value: { stored: 1 } });
    expect(badOutcome.status).toBe('rejected');
    expect((badOutcome as PromiseRejectedResult).reason).toBeInstanceOf(UnstorableMessage);
    expect(await storedValues(healthy.sensors[0]!.id)).toEqual([4.5]);
    expect(await storedValues(poison.sensors[0]!.id)).toEqual([]);
  });
});
