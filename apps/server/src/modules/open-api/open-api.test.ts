import { createHmac, randomUUID } from 'node:crypto';
import {
  type CreatedOpenApiKey,
  type OpenApiKeyView,
  type OpenApiUsageView,
  openApiSigningText,
  type Page,
} from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { openApiKeys, openApiUsage } from './open-api.table';

const SERVICES = ['service:openApi'];

interface Key {
  appKey: string;
  appSecret: string;
}

/** A signed GET as an integrator's client sends it (API.md "Open API"). */
async function signedGet(
  app: FastifyInstance,
  key: Key,
  url: string,
  options: { timestamp?: number; nonce?: string; secret?: string; language?: string } = {},
) {
  const timestamp = String(options.timestamp ?? Date.now());
  const nonce = options.nonce ?? randomUUID();
  const signature = createHmac('sha256', options.secret ?? key.appSecret)
    .update(openApiSigningText('GET', url, timestamp, nonce, ''))
    .digest('hex');
  const res = await app.inject({
    method: 'GET',
    url,
    headers: {
      'x-app-key': key.appKey,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      'x-signature': signature,
      ...(options.language ? { language: options.language } : {}),
    },
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer of a different call
    body: res.json() as { msgCode: number; msgContent: string; data: any },
  };
}

describe('open API', () => {
  const ctx = useTestApp({ openApiRatePerMinute: 12 });

  async function setUp(services = SERVICES) {
    const company = await buildCompany(ctx.app.db, { services });
    const admin = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const opened = await buildDevice(ctx.app.db, company.id, { name: 'Opened fridge' });
    const closed = await buildDevice(ctx.app.db, company.id, { name: 'Closed fridge' });
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, admin);
    return { company, admin, opened, closed, post };
  }

  async function keyFor(
    post: Awaited<ReturnType<typeof setUp>>['post'],
    deviceIds: string[],
    name = 'BMS link',
  ) {
    const created = await post<CreatedOpenApiKey>('/api/openApi/createKey', { name });
    expect(created.body.msgCode).toBe(200);
    const key = created.body.data;
    expect((await post('/api/openApi/setDevices', { id: key.id, deviceIds })).body.msgCode).toBe(200);
    return key;
  }

  it('creates a key whose secret is shown once and stored sealed, and lists it without the secret', async () => {
    const { post, opened } = await setUp();
    const key = await keyFor(post, [opened.id]);
    expect(key.appKey).toMatch(/^ak_[0-9a-f]{24}$/);
    expect(key.appSecret.length).toBeGreaterThanOrEqual(32);
    const [row] = await ctx.app.db.select().from(openApiKeys).where(eq(openApiKeys.appKey, key.appKey));
    expect(row!.secretSealed).not.toContain(key.appSecret);
    const page = await post<Page<OpenApiKeyView>>('/api/openApi/pageKeys', { pageNum: 1, pageSize: 20 });
    expect(page.body.data.list).toEqual([
      expect.objectContaining({
        id: key.id,
        name: 'BMS link',
        appKey: key.appKey,
        state: 'active',
        deviceIds: [opened.id],
      }),
    ]);
    expect(JSON.stringify(page.body)).not.toContain(key.appSecret);
    expect((await post('/api/openApi/createKey', { name: 'x' })).body.msgContent).toBe(
      'Key name must be 2-50 characters',
    );
  });

  it('needs the company to have the open API service', async () => {
    const { post } = await setUp([]);
    // Every service that is off answers the spec's words (modules/companies/service-gate.ts).
    expect((await post('/api/openApi/createKey', { name: 'BMS link' })).body.msgContent).toBe(
      'No permission for this service or operation',
    );
  });

  it('answers signed calls with the opened devices only, their readings and alarms', async () => {
    const { post, opened, closed } = await setUp();
    const known = (await ctx.app.deviceDirectory.find(opened.serial))!;
    const t0 = Date.now() - 3_600_000;
    await ctx.app.ingest.ingest(known, [
      { ts: t0, channels: [{ ch: 1, v: 4.5 }], mode: 'normal' as const },
      { ts: t0 + 60_000, channels: [{ ch: 1, v: 5.5 }], mode: 'normal' as const },
    ]);
    const key = await keyFor(post, [opened.id]);
    const list = await signedGet(ctx.app, key, '/open/v1/devices?pageNum=1&pageSize=10');
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({
      id: opened.id,
      serial: opened.serial,
      name: 'Opened fridge',
      sensors: [expect.objectContaining({ channel: 1, type: 'temperature', value: 5.5 })],
    });
    const sensorId = opened.sensors[0]!.id;
    const readings = await signedGet(
      ctx.app,
      key,
      `/open/v1/sensors/${sensorId}/readings?startTime=${t0 - 1000}&endTime=${Date.now()}`,
    );
    expect(readings.body.data).toMatchObject({
      points: [
        [t0, 4.5],
        [t0 + 60_000, 5.5],
      ],
      min: 4.5,
      max: 5.5,
    });
    const foreign = await signedGet(
      ctx.app,
      key,
      `/open/v1/sensors/${closed.sensors[0]!.id}/readings?startTime=${t0}&endTime=${Date.now()}`,
    );
    expect(foreign.body).toMatchObject({
      msgCode: 500,
      msgContent: 'No permission for this service or operation',
    });
    const alarms = await signedGet(ctx.app, key, '/open/v1/alarms?pageNum=1&pageSize=5');
    expect(alarms.body.data).toMatchObject({ list: [], total: 0 });
    const bad = await signedGet(ctx.app, key, `/open/v1/sensors/${sensorId}/readings?startTime=5&endTime=1`);
    expect(bad.body.msgCode).toBe(500);
    expect(bad.body.msgContent).toContain('End time');
  });

  it('refuses a missing, wrong, old, replayed or revoked signature with 401 and msgCode 311', async () => {
    const { post, opened } = await setUp();
    const key = await keyFor(post, [opened.id]);
    const unsigned = await ctx.app.inject({ method: 'GET', url: '/open/v1/devices' });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ msgCode: 311 });
    const cases = [
      [{ secret: 'not-the-secret' }, 'The signature does not match the request'],
      [
        { timestamp: Date.now() - 6 * 60_000 },
        'X-Timestamp must be epoch milliseconds within 5 minutes of the server clock',
      ],
      [{ nonce: 'short' }, 'X-Nonce must be 8-64 characters'],
    ] as const;
    for (const [options, message] of cases) {
      const res = await signedGet(ctx.app, key, '/open/v1/devices', options);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ msgCode: 311, msgContent: message });
    }
    const nonce = randomUUID();
    expect((await signedGet(ctx.app, key, '/open/v1/devices', { nonce })).status).toBe(200);
    const replay = await signedGet(ctx.app, key, '/open/v1/devices', { nonce, language: 'cn' });
    expect(replay).toMatchObject({
      status: 401,
      body: { msgCode: 311, msgContent: '该 Nonce 在 10 分钟内已使用，每次请求须使用新的 Nonce' },
    });
    // A signature over another path does not hold for this one.
    const moved = await signedGet(ctx.app, key, '/open/v1/alarms');
    expect(moved.status).toBe(200);

    const usage = await post<Page<OpenApiUsageView>>('/api/openApi/pageUsage', {
      id: key.id,
      pageNum: 1,
      pageSize: 20,
    });
    expect(usage.body.data.list.map((u) => u.httpStatus)).toEqual([200, 401, 200, 401, 401, 401]);
    expect(usage.body.data.list[0]).toMatchObject({ method: 'GET', path: '/open/v1/alarms', msgCode: 200 });

    expect((await post('/api/openApi/revokeKey', { id: key.id })).body.msgCode).toBe(200);
    const revoked = await signedGet(ctx.app, key, '/open/v1/devices');
    expect(revoked).toMatchObject({
      status: 401,
      body: { msgCode: 311, msgContent: 'Unknown or revoked app key' },
    });
  });

  it('limits each key to its rate with 429 and Retry-After', async () => {
    const { post, opened } = await setUp();
    const key = await keyFor(post, [opened.id]);
    const logged = async () =>
      (
        await ctx.app.db
          .select()
          .from(openApiUsage)
          .where(eq(openApiUsage.keyId, Number(key.id)))
      ).length;
    for (let i = 0; i < 12; i++) {
      expect((await signedGet(ctx.app, key, '/open/v1/devices')).status).toBe(200);
      // Counted before its answer left: the next call, on another connection, must see it.
      expect(await logged()).toBe(i + 1);
    }
    const over = await signedGet(ctx.app, key, '/open/v1/devices');
    expect(over.status).toBe(429);
    expect(over.body.msgCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another key of the company has its own allowance.
    const other = await keyFor(post, [opened.id], 'Second client');
    expect((await signedGet(ctx.app, other, '/open/v1/devices')).status).toBe(200);
  });

  it('keeps a burst of concurrent calls to the rate, each logged once with its answer', async () => {
    const { post, opened } = await setUp();
    const key = await keyFor(post, [opened.id]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => signedGet(ctx.app, key, '/open/v1/devices')),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(12).fill(200), ...Array<number>(8).fill(429)]);
    const log = await ctx.app.db
      .select({ httpStatus: openApiUsage.httpStatus, msgCode: openApiUsage.msgCode })
      .from(openApiUsage)
      .where(eq(openApiUsage.keyId, Number(key.id)));
    expect(log.map((row) => row.httpStatus).sort()).toEqual(statuses);
    expect(log.filter((row) => row.msgCode === 200)).toHaveLength(12);
  });

  it('keeps a key to its own company: no foreign device can be opened, none is listed', async () => {
    const a = await setUp();
    const b = await setUp();
    const key = await keyFor(b.post, [b.opened.id]);
    expect(
      (await b.post('/api/openApi/setDevices', { id: key.id, deviceIds: [a.opened.id] })).body.msgContent,
    ).toBe('The device does not exist');
    expect((await a.post('/api/openApi/revokeKey', { id: key.id })).body.msgContent).toBe(
      'The key does not exist',
    );
    const list = await signedGet(ctx.app, key, '/open/v1/devices');
    expect(list.body.data.list.map((d: { id: string }) => d.id)).toEqual([b.opened.id]);
    const foreign = await signedGet(
      ctx.app,
      key,
      `/open/v1/sensors/${a.opened.sensors[0]!.id}/readings?startTime=0&endTime=${Date.now()}`,
    );
    expect(foreign.body.msgContent).toBe('No permission for this service or operation');
  });
});
