import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { readings } from '../telemetry/readings.table';
import { startDeviceBroker } from './device-broker';
import type { EmbeddedBroker } from './embedded-broker';

describe('MQTT ingest through the embedded broker', () => {
  const ctx = useTestApp();
  let broker: EmbeddedBroker;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    broker = await startDeviceBroker(ctx.app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await broker.close();
  });

  async function connect(serial: string, key: string) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: serial,
      username: serial,
      password: key,
      reconnectPeriod: 0,
    });
    clients.push(client);
    return client;
  }

  async function newDevice() {
    const company = await buildCompany(ctx.app.db);
    return { company, device: await buildDevice(ctx.app.db, company.id) };
  }

  it('acknowledges a QoS 1 publish only once the reading is committed, and stores a resend once', async () => {
    const { device } = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    const ts = Date.now();
    const payload = JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: 6.5 }] }] });
    await client.publishAsync(`cc/v1/${device.serial}/up`, payload, { qos: 1 });
    // The PUBACK has arrived: the row must already be visible to any other connection.
    const rows = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(rows.map((r) => [r.ts.getTime(), r.value])).toEqual([[ts, 6.5]]);
    await client.publishAsync(`cc/v1/${device.serial}/up`, payload, { qos: 1 });
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
    ).toHaveLength(1);
  });

  it('acknowledges a bad payload and reports the reason on the error topic', async () => {
    const { device } = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    await client.subscribeAsync(`cc/v1/${device.serial}/error`, { qos: 0 });
    const reported = new Promise<{ error: string }>((resolve) =>
      client.on('message', (_topic, message) => resolve(JSON.parse(message.toString()))),
    );
    await client.publishAsync(`cc/v1/${device.serial}/up`, '{"records":[{"ts":1,"channels":[]}]}', {
      qos: 1,
    });
    expect((await reported).error).toContain('records.0.channels');
  });

  it('reports a value beyond a 32-bit float and a record from a broken clock on the error topic', async () => {
    const { device } = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    await client.subscribeAsync(`cc/v1/${device.serial}/error`, { qos: 0 });
    const reports: { error: string; refusedRecords?: unknown[] }[] = [];
    client.on('message', (_topic, message) => reports.push(JSON.parse(message.toString())));
    await client.publishAsync(
      `cc/v1/${device.serial}/up`,
      JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 3e39 }] }] }),
      { qos: 1 },
    );
    const now = Date.now();
    await client.publishAsync(
      `cc/v1/${device.serial}/up`,
      JSON.stringify({
        records: [
          { ts: now, channels: [{ ch: 1, v: 5 }] },
          { ts: Date.UTC(2126, 0, 1), channels: [{ ch: 1, v: 6 }] },
        ],
      }),
      { qos: 1 },
    );
    while (reports.length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(reports[0]!.error).toMatch(/^records\.0\.channels\.0\.v: .*32-bit/);
    expect(reports[1]!.error).toMatch(
      /1 record\(s\) refused and not stored, the others were stored; first: records\.1\.ts: 2126-/,
    );
    expect(reports[1]!.refusedRecords).toEqual([
      { index: 1, error: expect.stringMatching(/^records\.1\.ts: /) },
    ]);
    const rows = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(rows.map((r) => [r.ts.getTime(), r.value])).toEqual([[now, 5]]);
  });

  it('refuses a wrong key and a client id that is not the serial', async () => {
    const { device } = await newDevice();
    await expect(connect(device.serial, 'wrong-key')).rejects.toThrow(/Not authorized/i);
    await expect(
      mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        clientId: 'someone-else',
        username: device.serial,
        password: device.deviceKey,
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow(/Not authorized/i);
  });

  it('disconnects a device that publishes to another device’s topic', async () => {
    const a = await newDevice();
    const b = await newDevice();
    const client = await connect(a.device.serial, a.device.deviceKey);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(
      `cc/v1/${b.device.serial}/up`,
      JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 1 }] }] }),
      { qos: 1 },
    );
    await closed;
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, b.device.sensors[0]!.id)),
    ).toHaveLength(0);
  });

  it('drops the connection when the key is reset', async () => {
    const { company, device } = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const token = await login(ctx.app, company.admin.account);
    await call(ctx.app, '/api/device/resetDeviceKey', { id: device.id }, { token });
    await closed;
    await expect(connect(device.serial, device.deviceKey)).rejects.toThrow(/Not authorized/i);
  });

  it('writes concurrent publishes from many devices together, all acknowledged and stored', async () => {
    const company = await buildCompany(ctx.app.db);
    const fleet = await Promise.all(Array.from({ length: 5 }, () => buildDevice(ctx.app.db, company.id)));
    const connections = await Promise.all(fleet.map((d) => connect(d.serial, d.deviceKey)));
    const start = Date.now() - 60_000;
    await Promise.all(
      connections.flatMap((client, i) =>
        Array.from({ length: 20 }, (_, n) =>
          client.publishAsync(
            `cc/v1/${fleet[i]!.serial}/up`,
            JSON.stringify({ records: [{ ts: start + n * 1000, channels: [{ ch: 1, v: n }] }] }),
            { qos: 1 },
          ),
        ),
      ),
    );
    for (const device of fleet) {
      expect(
        await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
      ).toHaveLength(20);
    }
  });
});
