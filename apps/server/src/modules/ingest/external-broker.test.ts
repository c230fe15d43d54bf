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
  it('applies the same checks as the embedded broker and reports on the error topic', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const publisher = await mqtt.connectAsync(MOSQUITTO, { clientId: device.serial, reconnectPeriod: 0 });
    await publisher.subscribeAsync(`cc/v1/${device.serial}/error`, { qos: 0 });
    const reports: string[] = [];
    publisher.on('message', (_t, m) => reports.push(JSON.parse(m.toString()).error));
    const topic = `cc/v1/${device.serial}`;
    await publisher.publishAsync(
      `${topic}/up`,
      JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 1e300 }] }] }),
      { qos: 1 },
    );
    await waitFor(async () => (reports.length >= 1 ? true : undefined));
    await publisher.publishAsync(
      `${topic}/up`,
      JSON.stringify({ records: [{ ts: Date.UTC(2126, 0, 1), channels: [{ ch: 1, v: 5 }] }] }),
      { qos: 1 },
    );
    await waitFor(async () => (reports.length >= 2 ? true : undefined));
    await publisher.publishAsync(
      `${topic}/event`,
      JSON.stringify({ ts: Date.now(), event: 'selfDestruct' }),
      {
        qos: 1,
      },
    );
    await waitFor(async () => (reports.length >= 3 ? true : undefined));
    expect(reports[0]).toMatch(/^records\.0\.channels\.0\.v: .*32-bit/);
    expect(reports[1]).toMatch(/^records\.0\.ts: 2126-01-01T00:00:00\.000Z is more than 300 s ahead/);
    expect(reports[2]).toMatch(/^event: unknown event "selfDestruct"; known events: powerOff/);
    expect(
      await ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id)),
    ).toHaveLength(0);
    await publisher.endAsync();
  });
});

describe('an instance killed without a drain (SIGKILL)', () => {
  // An app of its own: every share group gets its copy of a message, and the link of the tests
  // above would store it at once.
  const ctx = useTestApp();

  it('resumes the session of a process killed without a drain: what arrived meanwhile is stored', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const options = {
      url: MOSQUITTO,
      group: `cc-test-${randomBytes(4).toString('hex')}`,
      clientId: `cc-test-${randomBytes(4).toString('hex')}`,
      consumers: 1,
    };
    const killed = await connectExternalBroker(ctx.app, options);
    // SIGKILL: the socket closes without a DISCONNECT and nothing reconnects; the broker keeps the
    // persistent session, the only member of its group, and queues the device's messages in it.
    killed.client.options.reconnectPeriod = 0;
    killed.client.stream.destroy();
    await waitFor(async () => (killed.client.connected ? undefined : true));

    const publisher = await mqtt.connectAsync(MOSQUITTO, { clientId: device.serial, reconnectPeriod: 0 });
    const ts = Date.now();
    const payload = JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: 4.25 }] }] });
    await publisher.publishAsync(`cc/v1/${device.serial}/up`, payload, { qos: 1 });
    await publisher.endAsync();
    const stored = () =>
      ctx.app.db.select().from(readings).where(eq(readings.sensorId, device.sensors[0]!.id));
    expect(await stored()).toHaveLength(0);

    // The restarted process connects under the same client id (config.ts, MQTT_CLIENT_ID).
    const restarted = await connectExternalBroker(ctx.app, options);
    try {
      const rows = await waitFor(async () => {
        const found = await stored();
        return found.length > 0 ? found : undefined;
      });
      expect(rows.map((r) => [r.ts.getTime(), r.value])).toEqual([[ts, 4.25]]);
    } finally {
      await restarted.close();
      await killed.client.endAsync(true);
    }
  });
});
