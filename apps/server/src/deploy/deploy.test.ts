import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Database, openDatabase, queryRows } from '../db/client';
import { addInventory } from '../modules/inventory/inventory.service';
import { buildCompany } from '../test/factories';
import { type DeployStack, fetchRaw, readUnit, repoRoot, startDeployStack, stopChild } from './deploy-stack';

/**
 * The operator's deployment (deploy/, docs/deployment.md): PostgreSQL, Mosquitto with TLS for
 * devices, two production server instances and nginx in front, each started from the committed
 * configuration files, then used as a browser, a device and Prometheus would use them.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The client "on the internet": a loopback address that is not nginx's (127.0.0.1). */
const CLIENT_ADDRESS = '127.0.0.2';

describe('one-machine deployment: PostgreSQL, Mosquitto, two instances behind nginx (deploy/)', () => {
  let stack: DeployStack;
  let db: Database;
  let https: string;
  let token: string;
  let device: { id: string; serial: string; deviceKey: string };

  const post = async <T>(base: string, url: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetchRaw(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { accessToken: token } : {}), ...headers },
      body: JSON.stringify(body),
      localAddress: CLIENT_ADDRESS,
    });
    expect(answer.status, `${url}: ${answer.body}`).toBe(200);
    const envelope = JSON.parse(answer.body) as { msgCode: number; msgContent: string; data: T };
    expect(envelope.msgCode, `${url}: ${envelope.msgContent}`).toBe(200);
    return envelope.data;
  };

  /** `coldchain_readings_stored_total` of one instance, scraped directly as Prometheus does. */
  const storedCounter = async (baseUrl: string) => {
    const answer = await fetchRaw(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${stack.metricsToken}` },
    });
    expect(answer.status).toBe(200);
    const line = answer.body.split('\n').find((l) => l.startsWith('coldchain_readings_stored_total'));
    return Number(line?.split(' ')[1] ?? 0);
  };

  const storedReadings = async () =>
    Number(
      (
        await queryRows<{ n: string }>(
          db.db,
          sql`select count(*) as n from readings r join sensors s on s.id = r.sensor_id
               where s.device_id = ${Number(device.id)}`,
        )
      )[0]!.n,
    );

  const deviceConnection = (password: string) =>
    mqtt.connectAsync(`mqtts://127.0.0.1:${stack.mqttTlsPort}`, {
      clientId: device.serial,
      username: device.serial,
      password,
      ca: readFileSync(stack.certFile),
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });

  beforeAll(async () => {
    stack = await startDeployStack();
    https = `https://127.0.0.1:${stack.httpsPort}`;
    db = await openDatabase({ url: stack.databaseUrl });
  }, 240_000);

  afterAll(async () => {
    await db?.close();
    await stack?.stop();
  }, 60_000);

  it('answers health, readiness and the console through nginx, HTTP redirected to HTTPS', async () => {
    const health = await fetchRaw(`${https}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' });
    const ready = await fetchRaw(`${https}/readyz`);
    expect(ready.status, ready.body).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', mqtt: 'ok' },
    });

    const plain = await fetchRaw(`http://127.0.0.1:${stack.httpPort}/login?x=1`);
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://127.0.0.1/login?x=1');

    // The console: the server's security headers, once, and HSTS because nginx said "https".
    const page = await fetchRaw(`${https}/login`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toEqual(expect.any(String));
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['strict-transport-security']).toMatch(/max-age=/);
    const overHttp = await fetchRaw(`http://127.0.0.1:${stack.instances[0]!.port}/login`);
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();

    // A file the build did not compress is gzipped by nginx.
    const script = await fetchRaw(`${https}/assets/app.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(script.body, 'latin1')).toString()).toContain('cold cold');

    // /metrics only on each instance's own port, with the token.
    expect((await fetchRaw(`${https}/metrics`)).status).toBe(404);
    for (const instance of stack.instances) {
      expect((await fetchRaw(`${instance.baseUrl}/metrics`)).status).toBe(401);
      expect(await storedCounter(instance.baseUrl)).toBe(0);
    }
  });

  it('logs in through nginx and records the client address from X-Forwarded-For, not a forged one', async () => {
    const company = await buildCompany(db.db);
    const login = await post<{ accessToken: string }>(
      https,
      '/api/doLogin',
      { account: company.admin.account, password: company.admin.password, type: 1, platform: 1 },
      // A client naming its own address: nginx appends the real one, and only nginx is trusted.
      { 'x-forwarded-for': '203.0.113.7' },
    );
    token = login.accessToken;
    const rows = await queryRows<{ ip: string }>(
      db.db,
      sql`select ip from login_log where user_id = ${company.admin.id} and status = 1`,
    );
    expect(rows).toEqual([{ ip: CLIENT_ADDRESS }]);

    // A monitor for the MQTT checks, added through the console's call.
    const serial = `DEPLOY${Date.now().toString(36).toUpperCase()}`;
    await addInventory(db.db, [
      {
        serial,
        model: 'CC-DEPLOY',
        version: 'standard',
        channels: [{ ch: 1, type: 'temperature', unit: '°C', min: -40, max: 85 }],
      },
    ]);
    const added = await post<{ id: string; deviceKey: string }>(https, '/api/device/addDevice', {
      serial,
      name: 'Deploy fridge',
    });
    device = { id: added.id, serial, deviceKey: added.deviceKey };
  });

  it('upgrades the live socket through nginx', async () => {
    const socket = new WebSocket(`wss://127.0.0.1:${stack.httpsPort}/api/ws`, {
      rejectUnauthorized: false,
      localAddress: CLIENT_ADDRESS,
    });
    const bound = new Promise<unknown>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string };
        if (message.type === 'bind') resolve(message);
      });
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ bindType: 2, bindContent: token }));
    await expect(bound).resolves.toMatchObject({ type: 'bind' });
    socket.terminate();
  });

  it('stores a reading published to Mosquitto over TLS once, visible through both instances', async () => {
    await stack.addMqttDevice(device.serial, device.deviceKey);
    // Mosquitto checks the device key: a wrong one is refused.
    await expect(deviceConnection('not-the-key')).rejects.toThrow(/authori[sz]ed/i);
    const client = await deviceConnection(device.deviceKey);
    // Its own topics only (the ACL): another device's topic is not delivered to the server.
    const now = Date.now();
    const values = [4.1, 4.3, 4.6, 4.9, 5.2, 5.5];
    for (const [i, v] of values.entries())
      await client.publishAsync(
        `cc/v1/${device.serial}/up`,
        JSON.stringify({ records: [{ ts: now - (values.length - i) * 1000, channels: [{ ch: 1, v }] }] }),
        { qos: 1 },
      );
    await client.endAsync();

    await until(async () => (await storedReadings()) === values.length, 'the readings in PostgreSQL');
    // Each message was handled by one instance (the shared subscription), never by both.
    const counters = await Promise.all(stack.instances.map((i) => storedCounter(i.baseUrl)));
    expect(counters.reduce((a, b) => a + b, 0)).toBe(values.length);

    for (const instance of stack.instances) {
      const detail = await post<{ sensors: { value: number | null }[] }>(
        instance.baseUrl,
        '/api/device/deviceDetail',
        {
          id: device.id,
        },
      );
      expect(detail.sensors[0]?.value).toBeCloseTo(5.5, 3);
    }
  });

  it('keeps answering through the other instance while one drains and stops', async () => {
    const [, second] = stack.instances;
    const stopped = await stopChild(second!.child);
    // A clean exit within the drain (10 s) and well inside the unit's TimeoutStopSec.
    expect(stopped.code, second!.output()).toBe(0);
    expect(stopped.ms).toBeLessThan(readUnit().timeoutStopSec * 1000);

    for (let i = 0; i < 6; i++) {
      expect((await fetchRaw(`${https}/healthz`)).status).toBe(200);
      const pageOfDevices = await post<{ total: number }>(https, '/api/device/pageDevices', {
        pageNum: 1,
        pageSize: 20,
      });
      expect(pageOfDevices.total).toBe(1);
    }

    // Devices still connect and are acknowledged by Mosquitto.
    const client = await deviceConnection(device.deviceKey);
    await client.publishAsync(
      `cc/v1/${device.serial}/event`,
      JSON.stringify({ ts: Date.now(), event: 'doorOpen' }),
      {
        qos: 1,
      },
    );
    await client.endAsync();
    expect(stack.nginxErrors()).not.toMatch(/\[(emerg|alert|crit)\]/);
  });

  /*
   * A stopped instance must not keep a share of the devices' messages: Mosquitto 2.0 goes on
   * handing a share to a member whose persistent session is disconnected, and acknowledges them
   * to the device. The server leaves the share group and ends its session when it drains
   * (modules/ingest/external-broker.ts), so every reading goes to the instance still running.
   */
  it('stores every reading published while one instance is stopped', async () => {
    const client = await deviceConnection(device.deviceKey);
    const now = Date.now();
    for (let i = 0; i < 4; i++)
      await client.publishAsync(
        `cc/v1/${device.serial}/up`,
        JSON.stringify({ records: [{ ts: now - (4 - i) * 100, channels: [{ ch: 1, v: 6 + i / 10 }] }] }),
        { qos: 1 },
      );
    await client.endAsync();
    await until(
      async () => (await storedReadings()) === 10,
      'the readings after one instance stopped',
      5_000,
    );
  });

  it('ships the files the documentation names', () => {
    const compose = readFileSync(path.join(repoRoot, 'deploy/docker-compose.yml'), 'utf8');
    for (const [, file] of compose.matchAll(/\s\.\/((?:nginx|mosquitto|env)\/[\w.@-]+)/g))
      expect(existsSync(path.join(repoRoot, 'deploy', file!)), file).toBe(true);
    expect(existsSync(path.join(repoRoot, 'deploy/Dockerfile'))).toBe(true);
  });
});
