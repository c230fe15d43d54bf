import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { readings } from '../telemetry/readings.table';
import { startDeviceBroker } from './device-broker';
import { DEFAULT_DEVICE_LIMITS } from './device-limits';
import type { EmbeddedBroker } from './embedded-broker';
import { PacketSizeGuard } from './mqtt-packet-guard';

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

const reading = (v = 5, ts = Date.now()) => JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v }] }] });

describe('what one device may send (MQTT_MAX_PACKET_BYTES, DEVICE_CONNECTS_PER_MINUTE, DEVICE_MESSAGES_PER_MINUTE)', () => {
  const ctx = useTestApp({ deviceLimits: { ...DEFAULT_DEVICE_LIMITS, messagesPerMinute: 30 } });
  let broker: EmbeddedBroker;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    broker = await startDeviceBroker(ctx.app, 0, '127.0.0.1', { maxPacketBytes: 4096, connectsPerMinute: 3 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await broker.close();
  });

  async function connect(serial: string, key: string, protocolVersion: 4 | 5 = 4) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: serial,
      username: serial,
      password: key,
      reconnectPeriod: 0,
      protocolVersion,
    });
    clients.push(client);
    return client;
  }
  async function newDevice() {
    const company = await buildCompany(ctx.app.db);
    return buildDevice(ctx.app.db, company.id);
  }
  const storedCount = async (sensorId: number) =>
    (await ctx.app.db.select().from(readings).where(eq(readings.sensorId, sensorId))).length;

  it('closes the connection of a packet over the limit on its header, stores nothing of it, and accepts one under it', async () => {
    const device = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    await client.publishAsync(`cc/v1/${device.serial}/up`, reading(), { qos: 1 });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const oversized = JSON.stringify({
      records: [{ ts: Date.now() - 1000, channels: [{ ch: 1, v: 6 }] }],
      padding: 'x'.repeat(20_000),
    });
    client.publish(`cc/v1/${device.serial}/up`, oversized, { qos: 1 });
    await closed;
    expect(await storedCount(device.sensors[0]!.id)).toBe(1);
  });

  it('reads the declared size from the first bytes, across chunk boundaries', () => {
    const guard = new PacketSizeGuard(4096);
    // PINGREQ (2 bytes), then a PUBLISH declaring 20 MB whose length bytes arrive one at a time.
    expect(guard.feed(Buffer.from([0xc0, 0x00, 0x30]))).toBeNull();
    const length = [0x80, 0xda, 0xc4, 0x09]; // 20 000 000 in MQTT's variable-length encoding
    expect(guard.feed(Buffer.from(length.slice(0, 2)))).toBeNull();
    expect(guard.feed(Buffer.from(length.slice(2)))).toBe(1 + 4 + 20_000_000);
  });

  it('refuses a device more connections a minute than allowed; wrong keys do not use up its allowance', async () => {
    const device = await newDevice();
    for (let i = 0; i < 5; i++)
      await expect(connect(device.serial, 'wrong')).rejects.toThrow(/Not authorized/i);
    for (let i = 0; i < 3; i++) await (await connect(device.serial, device.deviceKey)).endAsync();
    await expect(connect(device.serial, device.deviceKey)).rejects.toThrow(/Server unavailable/i);
    // Another device is not affected.
    const other = await newDevice();
    await connect(other.serial, other.deviceKey);
  });

  it('answers HTTP 429 with Retry-After over the message rate, storing nothing, and not for another device', async () => {
    const device = await newDevice();
    const now = Date.now();
    // 40 at once against 30 a minute (one more every 2 s while they are answered).
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post(ctx.app, device.serial, device.deviceKey, JSON.parse(reading(i, now - i * 1000))),
      ),
    );
    const accepted = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(accepted.length + refused.length).toBe(40);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    for (const over of refused) {
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(over.json().error).toMatch(/more than 30 messages a minute \(DEVICE_MESSAGES_PER_MINUTE\)/);
    }
    expect(await storedCount(device.sensors[0]!.id)).toBe(accepted.length);
    const other = await newDevice();
    expect((await post(ctx.app, other.serial, other.deviceKey, JSON.parse(reading()))).statusCode).toBe(200);
  });

  it('holds the acknowledgement of an MQTT message over the rate until the allowance refills, and says why', async () => {
    const device = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    await client.subscribeAsync(`cc/v1/${device.serial}/error`, { qos: 0 });
    const told = new Promise<string>((resolve) =>
      client.on('message', (_topic, message) => resolve(JSON.parse(message.toString()).error)),
    );
    const now = Date.now();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        client.publishAsync(`cc/v1/${device.serial}/up`, reading(i, now - i * 1000), { qos: 1 }),
      ),
    );
    const started = Date.now();
    await client.publishAsync(`cc/v1/${device.serial}/up`, reading(31, now + 1000), { qos: 1 });
    // 30 a minute refill one every 2 s.
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(await told).toMatch(/more than 30 messages a minute \(DEVICE_MESSAGES_PER_MINUTE\)/);
    expect(await storedCount(device.sensors[0]!.id)).toBe(31);
  });
});

describe('device limit settings', () => {
  it('are read from the environment, and a bad value names the setting', () => {
    const config = loadConfig({
      MQTT_MAX_PACKET_BYTES: '65536',
      DEVICE_MESSAGES_PER_MINUTE: '60',
      DEVICE_CONNECTS_PER_MINUTE: '4',
      DEVICE_CLOCK_AHEAD_SECONDS: '120',
      DEVICE_BACKFILL_DAYS: '30',
    });
    expect(config.deviceLimits).toEqual({
      maxPacketBytes: 65536,
      messagesPerMinute: 60,
      connectsPerMinute: 4,
      window: { maxAheadMs: 120_000, backfillMs: 30 * 86_400_000 },
    });
    for (const [name, value] of [
      ['MQTT_MAX_PACKET_BYTES', '100'],
      ['MQTT_MAX_PACKET_BYTES', '1MB'],
      ['DEVICE_MESSAGES_PER_MINUTE', '0'],
      ['DEVICE_CONNECTS_PER_MINUTE', '-1'],
      ['DEVICE_CLOCK_AHEAD_SECONDS', 'soon'],
      ['DEVICE_BACKFILL_DAYS', '1.5'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: `));
    }
  });
});
