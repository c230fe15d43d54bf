import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { readings } from '../telemetry/readings.table';
import { startDeviceBroker } from './device-broker';
import type { EmbeddedBroker } from './embedded-broker';

describe('MQTT 5 devices on the embedded broker', () => {
  const ctx = useTestApp();
  let broker: EmbeddedBroker;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    broker = await startDeviceBroker(ctx.app, 0, '127.0.0.1', {
      maxPacketBytes: 65_536,
      connectsPerMinute: 10,
    });
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
      protocolVersion: 5,
    });
    clients.push(client);
    return client;
  }
  async function newDevice() {
    const company = await buildCompany(ctx.app.db);
    return buildDevice(ctx.app.db, company.id);
  }

  it('connects with MQTT 5, is told the packet size limit, and has its QoS 1 readings stored before the PUBACK', async () => {
    const device = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    // MQTT.js keeps the CONNACK it connected with.
    const connack = (client as unknown as { connackPacket: mqtt.IConnackPacket }).connackPacket;
    expect(connack.reasonCode ?? 0).toBe(0);
    expect(connack.properties).toMatchObject({ maximumPacketSize: 65_536, topicAliasMaximum: 0 });
    const ts = Date.now();
    await client.publishAsync(
      `cc/v1/${device.serial}/up`,
      JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: 3.5 }] }] }),
      { qos: 1 },
    );
    const rows = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(rows.map((r) => [r.ts.getTime(), r.value])).toEqual([[ts, 3.5]]);
  });

  it('hears rejections on its error topic, unsubscribes, and is disconnected for another device’s topic', async () => {
    const device = await newDevice();
    const other = await newDevice();
    const client = await connect(device.serial, device.deviceKey);
    const granted = await client.subscribeAsync(`cc/v1/${device.serial}/error`, { qos: 0 });
    expect(granted.map((g) => g.qos)).toEqual([0]);
    const reported = new Promise<string>((resolve) =>
      client.on('message', (_topic, message) => resolve(JSON.parse(message.toString()).error)),
    );
    await client.publishAsync(
      `cc/v1/${device.serial}/up`,
      JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 1e300 }] }] }),
      { qos: 1 },
    );
    expect(await reported).toMatch(/^records\.0\.channels\.0\.v: .*32-bit/);
    await client.unsubscribeAsync([`cc/v1/${device.serial}/error`, `cc/v1/${device.serial}/down`]);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.subscribe(`cc/v1/${other.serial}/error`, { qos: 0 }, () => undefined);
    await closed;
  });

  it('still passes MQTT 3.1 connections through unchanged', async () => {
    const device = await newDevice();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: device.serial,
      username: device.serial,
      password: device.deviceKey,
      reconnectPeriod: 0,
      protocolId: 'MQIsdp',
      protocolVersion: 3,
    });
    clients.push(client);
    const ts = Date.now();
    await client.publishAsync(
      `cc/v1/${device.serial}/up`,
      JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: 2 }] }] }),
      {
        qos: 1,
      },
    );
    const rows = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(rows.map((r) => r.ts.getTime())).toEqual([ts]);
  });

  it('refuses a wrong key with reason "not authorized"', async () => {
    const device = await newDevice();
    await expect(connect(device.serial, 'wrong')).rejects.toThrow(/Not authorized/i);
  });
});
