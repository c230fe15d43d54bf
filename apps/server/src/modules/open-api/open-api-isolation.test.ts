import { createHmac, randomUUID } from 'node:crypto';
import { type CreatedOpenApiKey, openApiSigningText } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { devices, sensors } from '../devices/devices.table';

/*
 * What a key reads through the signed /open/v1 calls (API.md "Open API"): its company's devices
 * opened to it, and nothing else. Company B's device, sensor and alarm, and A's device not opened
 * to the key, carry markers in their names and alarm texts; no answer to A's key may contain one,
 * whatever ids or headers the call is given. (open-api.test.ts covers signatures, the rate limit
 * and opening a foreign device; this file covers reading.)
 */

const FOREIGN = 'FOREIGN-B';
const CLOSED = 'CLOSED-A';

interface Key {
  id: string;
  appKey: string;
  appSecret: string;
}

/** A signed GET as an integrator's client sends it; `headers` are extra ones a client might try. */
async function signedGet(
  app: FastifyInstance,
  key: Key,
  url: string,
  headers: Record<string, string> = {},
): Promise<OpenAnswer> {
  const timestamp = String(Date.now());
  const nonce = randomUUID();
  const signature = createHmac('sha256', key.appSecret)
    .update(openApiSigningText('GET', url, timestamp, nonce, ''))
    .digest('hex');
  const res = await app.inject({
    method: 'GET',
    url,
    headers: {
      ...headers,
      'x-app-key': key.appKey,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      'x-signature': signature,
    },
  });
  return { status: res.statusCode, raw: res.body, body: res.json() };
}

/** The answer of a call; each assertion reads a different call's data. */
interface OpenAnswer {
  status: number;
  raw: string;
  // biome-ignore lint/suspicious/noExplicitAny: each assertion reads the answer of a different call
  body: { msgCode: number; msgContent: string; data: any };
}

describe('open API isolation', () => {
  const ctx = useTestApp({ openApiRatePerMinute: 1000 });
  const NO_PERMISSION = 'No permission for this service or operation';

  type Built = Awaited<ReturnType<typeof buildDevice>>;
  let companyA: number;
  let companyB: number;
  let post: <T>(url: string, body: unknown) => ReturnType<typeof call<T>>;
  let opened: Built;
  let closed: Built;
  let foreign: Built;
  const alarmOf = new Map<string, string>();
  const t0 = Date.now() - 3_600_000;

  /** A device with readings and an alarm, every name of it carrying `marker`. */
  async function markedDevice(companyId: number, marker: string) {
    const device = await buildDevice(ctx.app.db, companyId, { name: `${marker} fridge` });
    const sensor = device.sensors[0]!;
    await ctx.app.db
      .update(sensors)
      .set({ name: `${marker} probe` })
      .where(eq(sensors.id, sensor.id));
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    await ctx.app.ingest.ingest(known, [{ ts: t0, channels: [{ ch: 1, v: 4.5 }], mode: 'normal' as const }]);
    const [setting] = await ctx.app.db
      .insert(alarmSettings)
      .values({
        companyId,
        carrier: 'sensor',
        targetId: sensor.id,
        deviceId: Number(device.id),
        sensorId: sensor.id,
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        notifierIds: [],
      })
      .returning();
    const [alarm] = await ctx.app.db
      .insert(alarmRecords)
      .values({
        companyId,
        deviceId: Number(device.id),
        sensorId: sensor.id,
        settingId: setting!.id,
        alarmType: 'overLimit',
        level: 1,
        alarmTime: new Date(t0),
        excursionStart: new Date(t0),
        dedupeKey: `${marker}:${setting!.id}`,
        content: { en: `${marker} alarm`, cn: `${marker} 报警` },
        lastValue: 12,
      })
      .returning();
    alarmOf.set(device.id, String(alarm!.id));
    return device;
  }

  async function keyOpenedTo(deviceIds: string[], name: string): Promise<Key> {
    const created = await post<CreatedOpenApiKey>('/api/openApi/createKey', { name });
    expect(created.body.msgCode).toBe(200);
    const setDevices = await post('/api/openApi/setDevices', { id: created.body.data.id, deviceIds });
    expect(setDevices.body.msgCode).toBe(200);
    return created.body.data;
  }

  /** Without and with B's id in the console's company header, which the open API must ignore. */
  const headerSets = (): Record<string, string>[] => [{}, { companyId: String(companyB) }];

  /** No answer may name B's things or A's device that is not opened. */
  function expectNothingHidden(raw: string) {
    expect(raw).not.toContain(FOREIGN);
    expect(raw).not.toContain(CLOSED);
  }

  beforeAll(async () => {
    const a = await buildCompany(ctx.app.db, { services: ['service:openApi'] });
    const b = await buildCompany(ctx.app.db, { services: ['service:openApi'] });
    companyA = a.id;
    companyB = b.id;
    const admin = { token: await login(ctx.app, a.admin.account), companyId: a.id };
    post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, admin);
    opened = await markedDevice(a.id, 'OPEN-A');
    closed = await markedDevice(a.id, CLOSED);
    foreign = await markedDevice(b.id, FOREIGN);
  }, 60_000);

  it("shows A's key its opened device, sensor and alarm only, even when the call names B's ids", async () => {
    const key = await keyOpenedTo([opened.id], 'Isolation');
    const tries = [
      '',
      `&deviceId=${foreign.id}&companyId=${companyB}`,
      `&deviceId=${closed.id}&sensorId=${closed.sensors[0]!.id}`,
    ];
    for (const extra of tries) {
      for (const headers of headerSets()) {
        const list = await signedGet(
          ctx.app,
          key,
          `/open/v1/devices?pageNum=1&pageSize=200${extra}`,
          headers,
        );
        expectNothingHidden(list.raw);
        expect(list.body.data.list.map((d: { id: string }) => d.id)).toEqual([opened.id]);
        // The probe sees a leak: the opened device's own marked names are in the answer.
        expect(list.raw).toContain('OPEN-A probe');

        const alarms = await signedGet(
          ctx.app,
          key,
          `/open/v1/alarms?pageNum=1&pageSize=200${extra}`,
          headers,
        );
        expectNothingHidden(alarms.raw);
        expect(alarms.body.data.list.map((x: { id: string }) => x.id)).toEqual([alarmOf.get(opened.id)]);
      }
    }
    const range = `startTime=${t0 - 1000}&endTime=${Date.now()}`;
    const own = await signedGet(ctx.app, key, `/open/v1/sensors/${opened.sensors[0]!.id}/readings?${range}`);
    expect(own.body.data.points).toEqual([[t0, 4.5]]);
    for (const sensor of [foreign.sensors[0]!, closed.sensors[0]!]) {
      for (const headers of headerSets()) {
        const refused = await signedGet(
          ctx.app,
          key,
          `/open/v1/sensors/${sensor.id}/readings?${range}`,
          headers,
        );
        expect(refused.body).toEqual({ msgCode: 500, msgContent: NO_PERMISSION, data: null });
      }
    }
    // B's things are really there: the same ids answer B's own key.
    const [bDevice] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(foreign.id)));
    expect(bDevice?.companyId).toBe(companyB);
    expect(companyA).not.toBe(companyB);
  });

  it('shows a key with no device opened to it nothing, and nothing once its device is closed again', async () => {
    const empty = await keyOpenedTo([], 'Nothing opened');
    const range = `startTime=${t0 - 1000}&endTime=${Date.now()}`;
    const check = async (key: Key) => {
      const list = await signedGet(ctx.app, key, '/open/v1/devices?pageNum=1&pageSize=200');
      expect(list.body.data).toMatchObject({ list: [], total: 0 });
      const alarms = await signedGet(ctx.app, key, '/open/v1/alarms?pageNum=1&pageSize=200');
      expect(alarms.body.data).toMatchObject({ list: [], total: 0 });
      for (const sensor of [opened.sensors[0]!, closed.sensors[0]!, foreign.sensors[0]!]) {
        const readings = await signedGet(ctx.app, key, `/open/v1/sensors/${sensor.id}/readings?${range}`);
        expect(readings.body.msgContent).toBe(NO_PERMISSION);
      }
    };
    await check(empty);

    const reopened = await keyOpenedTo([opened.id], 'Opened then closed');
    const before = await signedGet(ctx.app, reopened, '/open/v1/devices');
    expect(before.body.data.list.map((d: { id: string }) => d.id)).toEqual([opened.id]);
    expect((await post('/api/openApi/setDevices', { id: reopened.id, deviceIds: [] })).body.msgCode).toBe(
      200,
    );
    await check(reopened);
  });
});
