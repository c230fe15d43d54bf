import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { readings } from '../telemetry/readings.table';
import { connectExternalBroker, type ExternalBrokerLink } from './external-broker';

/** Mosquitto runs on this machine (and in CI) at 127.0.0.1:1883; MOSQUITTO_URL points elsewhere. */
const MOSQUITTO = process.env.MOSQUITTO_URL ?? 'mqtt://127.0.0.1:1883';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('external broker mode (MQTT_URL) against Mosquitto', () => {
  const ctx = useTestApp();
  let link: ExternalBrokerLink;

  beforeAll(async () => {
    // A group of our own, so a developer's running server does not take this test's messages.
    link = await connectExternalBroker(ctx.app, {
      url: MOSQUITTO,
      group: `cc-test-${randomBytes(4).toString('hex')}`,
      clientId: `cc-test-${randomBytes(4).toString('hex')}`,
    });
  });
  afterAll(async () => {
    await link?.close();
  });

  it('stores readings published by a device to the external broker, once per (channel, instant)', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const publisher = await mqtt.connectAsync(MOSQUITTO, {
      clientId: `${device.serial}`,
      reconnectPeriod: 0,
    });
    const ts = Date.now();
    const payload = JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: 3.5 }] }] });
    await publisher.publishAsync(`cc/v1/${device.serial}/up`, payload, { qos: 1 });
    await publisher.publishAsync(`cc/v1/${device.serial}/up`, payload, { qos: 1 });
    const rows = await waitFor(async () => {
      const found = await ctx.app.db
        .select()
        .from(readings)
        .where(eq(readings.sensorId, device.sensors[0]!.id));
      return found.length > 0 ? found : undefined;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(rows.map((r) => [r.ts.getTime(), r.value])).toEqual([[ts, 3.5]]);
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
    ).toHaveLength(1);

    // A bad payload is reported back on the device's error topic.
    await publisher.subscribeAsync(`cc/v1/${device.serial}/error`, { qos: 0 });
    const reported = new Promise<string>((resolve) =>
      publisher.on('message', (_t, m) => resolve(m.toString())),
    );
    await publisher.publishAsync(`cc/v1/${device.serial}/up`, '{"records":"no"}', { qos: 1 });
    expect(JSON.parse(await reported).error).toContain('records');
    await publisher.endAsync();
  });
});
