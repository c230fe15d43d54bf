import { DeviceEvents, EventPayload, UpPayload } from '@coldchain/contract';
import fc from 'fast-check';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceBroker } from '../modules/ingest/device-broker';
import type { EmbeddedBroker } from '../modules/ingest/embedded-broker';
import { testConfig, useTestApp } from './build-app';
import { buildCompany, buildDevice } from './factories';
import { anyEdge, edgeNumbers, edgeStrings, mutateBody, toJsonText } from './fuzz/edge-values';
import { ErrorLogCapture, FindingLog, fuzzSettings } from './fuzz/fuzz-run';
import { checkDeviceAnswer } from './fuzz/response-checks';
import { type GenerateOptions, zodArbitrary } from './fuzz/zod-arbitrary';

/*
 * Fuzz of the device protocol (API.md, docs/device-protocol.md): HTTP ingest (`/device/v1/up`,
 * `/device/v1/event`) and MQTT publishes to `cc/v1/<serial>/up|event`, with payloads generated
 * from the contract's UpPayload and EventPayload and edge values mixed in. Whatever a device
 * sends: no HTTP 5xx, no internal detail, no error logged; over MQTT every QoS 1 publish is
 * acknowledged and the connection stays open; and a device of another company writing at the
 * same moment is never failed by it (issue 13, finding 1).
 * Run it longer: FUZZ_RUNS=500 npx vitest run src/test/device-fuzz.test.ts (docs/testing.md).
 */

interface TestDevice {
  serial: string;
  deviceKey: string;
}

/** Raw payloads no schema produces: not JSON, truncated JSON, JSON of the wrong shape. */
const RAW_PAYLOADS = [
  '',
  'not json',
  '{',
  '{"records":',
  '[]',
  'null',
  '\u0000',
  '{"records":[{"ts":1e999}]}',
];

describe('device protocol fuzz: HTTP ingest and MQTT publish', () => {
  const errors = new ErrorLogCapture();
  const base = testConfig();
  const ctx = useTestApp(
    {
      // The fuzz sends far more than a real device: rate limits would answer 429 to most of it.
      deviceLimits: { ...base.deviceLimits, messagesPerMinute: 1_000_000, connectsPerMinute: 1_000_000 },
    },
    errors.logger,
  );
  // About 20 seconds in CI: 40 inputs per HTTP call, 80 MQTT publishes, 10 connects.
  const settings = fuzzSettings(40);
  let fuzzed: TestDevice;
  let bystander: TestDevice;
  let broker: EmbeddedBroker;

  beforeAll(async () => {
    const first = await buildCompany(ctx.app.db);
    const second = await buildCompany(ctx.app.db);
    const channels = [
      { type: 'temperature', unit: '°C', min: -40, max: 85 },
      { type: 'humidity', unit: '%', min: 0, max: 100 },
    ];
    fuzzed = await buildDevice(ctx.app.db, first.id, { channels });
    bystander = await buildDevice(ctx.app.db, second.id);
    broker = await startDeviceBroker(ctx.app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await broker?.close();
  });

  /** Payload generators: the schema's own shapes, mutated ones, edge values and raw text. */
  function payloads(schema: unknown): fc.Arbitrary<string> {
    const now = Date.now();
    const options: GenerateOptions = {
      hints: {
        // Now, a little ahead and behind, the window's edges and the instants that broke it before.
        ts: [now, now - 60_000, now + 60_000, now - 100 * 86_400_000, Math.floor(now / 1000), ...edgeNumbers],
        ch: [1, 2, 3, 64, 65, 0],
        v: [4.5, -20, 1e300, 1e-300, 3e39, -3e39, 3.4028234663852886e38, 1e-45, ...edgeNumbers],
        event: [...DeviceEvents, ...edgeStrings.slice(0, 12)],
      },
      ids: [],
    };
    const generated = zodArbitrary(schema, options);
    return fc.oneof(
      { arbitrary: generated.map(toJsonText), weight: 4 },
      { arbitrary: mutateBody(generated).map(toJsonText), weight: 2 },
      { arbitrary: anyEdge.map(toJsonText), weight: 1 },
      { arbitrary: fc.constantFrom(...RAW_PAYLOADS), weight: 1 },
    );
  }

  /** Mostly the device's own credentials; sometimes a wrong key, an unknown serial or none. */
  function authorizations(device: TestDevice): fc.Arbitrary<string | undefined> {
    const basic = (serial: string, key: string) =>
      `Basic ${Buffer.from(`${serial}:${key}`).toString('base64')}`;
    return fc.oneof(
      { arbitrary: fc.constant(basic(device.serial, device.deviceKey)), weight: 12 },
      {
        arbitrary: fc.constantFrom(
          basic(device.serial, 'wrong'),
          basic('NO-SUCH-SERIAL', device.deviceKey),
          basic('\u0000', ''),
          'Basic !!!',
          'Bearer x',
          undefined,
        ),
        weight: 1,
      },
    );
  }

  async function httpPost(path: string, payload: string, authorization?: string) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      payload,
    });
    return {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      body: response.body,
    };
  }

  /** A good reading of the other company's device, sent alongside: it must be stored (HTTP 200). */
  async function bystanderReading(ts: number) {
    const answer = await httpPost(
      '/device/v1/up',
      JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: 5 }] }] }),
      `Basic ${Buffer.from(`${bystander.serial}:${bystander.deviceKey}`).toString('base64')}`,
    );
    return answer.status === 200
      ? []
      : [`a device of another company failed alongside: HTTP ${answer.status} ${answer.body.slice(0, 200)}`];
  }

  for (const [kind, schema] of [
    ['up', UpPayload],
    ['event', EventPayload],
  ] as const) {
    it(`HTTP /device/v1/${kind}: no 5xx, no internals, and another company's reading still stored`, async () => {
      const log = new FindingLog();
      const route = `POST /device/v1/${kind}`;
      if (!settings.only.test(route)) return;
      let bystanderTs = Date.now() - 3_600_000;
      await log.check(
        route,
        fc.tuple(payloads(schema), authorizations(fuzzed)),
        async ([payload, authorization]) => {
          const [answer, alongside] = await Promise.all([
            httpPost(`/device/v1/${kind}`, payload, authorization),
            bystanderReading(++bystanderTs),
          ]);
          const problems = [...checkDeviceAnswer(answer), ...alongside, ...errors.drain()];
          if (answer.status !== 200 && answer.status !== 429 && !answer.body.includes('"error"'))
            problems.push(`HTTP ${answer.status} without a reason: ${answer.body.slice(0, 200)}`);
          const fresh = log.sort(route, [payload, authorization], problems);
          if (fresh.length > 0) throw new Error(fresh.join('\n'));
        },
        settings,
      );
      finish(log, route);
    }, 120_000);
  }

  it('MQTT cc/v1/<serial>/up and /event: every publish acknowledged, the connection kept open', async () => {
    const log = new FindingLog();
    if (!settings.only.test('MQTT up') && !settings.only.test('MQTT event')) return;
    let client = await connect(fuzzed);
    await log.check(
      'MQTT',
      fc.tuple(fc.constantFrom('up', 'event'), payloads(UpPayload), payloads(EventPayload)),
      async ([kind, up, event]) => {
        const route = `MQTT ${kind}`;
        const topic = `cc/v1/${fuzzed.serial}/${kind}`;
        const payload = kind === 'up' ? up : event;
        // A packet over MQTT_MAX_PACKET_BYTES closes the connection by design (device-protocol.md
        // "Limits"): the generator makes such payloads (5001 records), so they are told apart.
        const oversized = Buffer.byteLength(payload) + Buffer.byteLength(topic) + 16 > maxPacketBytes();
        const problems: string[] = [];
        try {
          await withTimeout(client.publishAsync(topic, payload, { qos: 1 }), oversized ? 3_000 : 10_000);
          if (oversized) problems.push('a publish over MQTT_MAX_PACKET_BYTES was acknowledged');
        } catch (error) {
          if (!oversized) problems.push(`publish not acknowledged: ${(error as Error).message}`);
        }
        // Otherwise the broker closes a connection only for a storage fault (mqtt-hooks.ts).
        if (!client.connected && !oversized) problems.push('connection closed by the broker');
        problems.push(...errors.drain());
        if (!client.connected) {
          await client.endAsync(true).catch(() => undefined);
          client = await connect(fuzzed);
        }
        const fresh = log.sort(route, [payload, fuzzed.serial], problems);
        if (fresh.length > 0) throw new Error(`${route}: ${fresh.join('\n')}`);
      },
      // Twice the runs: the two topics share this property.
      { ...settings, runs: settings.runs * 2 },
    );
    await client.endAsync(true);
    finish(log, 'MQTT', settings.runs * 2);
  }, 180_000);

  it('MQTT connect with odd credentials: refused, nothing logged as an error', async () => {
    const log = new FindingLog();
    const route = 'MQTT connect';
    // MQTT strings hold at most 65535 bytes, so the 70 000-character edge cannot be sent at all.
    const odd = [...edgeStrings.slice(0, 12), 'NO-SUCH-SERIAL'].filter((s) => Buffer.byteLength(s) < 65_536);
    // MQTT.js cannot send a password without a user name: the empty serial is left out.
    const serials = [...odd.filter((s) => s !== ''), fuzzed.serial];
    await log.check(
      route,
      fc.tuple(fc.constantFrom(...serials), fc.constantFrom(...odd, fuzzed.deviceKey)),
      async ([serial, key]) => {
        if (serial === fuzzed.serial && key === fuzzed.deviceKey) return;
        const problems: string[] = [];
        try {
          const client = await withTimeout(
            mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
              clientId: serial,
              username: serial,
              password: key,
              reconnectPeriod: 0,
              connectTimeout: 5_000,
            }),
            8_000,
          );
          problems.push('connected with wrong credentials');
          await client.endAsync(true);
        } catch (error) {
          if (!/Not authorized|Bad username|Identifier rejected/i.test((error as Error).message))
            problems.push(`refused without the reason: ${(error as Error).message}`);
        }
        problems.push(...errors.drain());
        const fresh = log.sort(route, [serial, key], problems);
        if (fresh.length > 0) throw new Error(`${route}: ${fresh.join('\n')}`);
      },
      { ...settings, runs: Math.ceil(settings.runs / 4) },
    );
    finish(log, route, Math.ceil(settings.runs / 4));
  }, 120_000);

  it('the server and the broker still work after the fuzz', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(await bystanderReading(Date.now())).toEqual([]);
    const client = await connect(bystander);
    await client.publishAsync(
      `cc/v1/${bystander.serial}/up`,
      JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 6 }] }] }),
      { qos: 1 },
    );
    expect(client.connected).toBe(true);
    await client.endAsync(true);
    expect(errors.drain()).toEqual([]);
  });

  const maxPacketBytes = () => ctx.app.ingest.limits.maxPacketBytes;

  async function connect(device: TestDevice): Promise<MqttClient> {
    return mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: device.serial,
      username: device.serial,
      password: device.deviceKey,
      reconnectPeriod: 0,
    });
  }

  function finish(log: FindingLog, what: string, runs = settings.runs) {
    const summary = log.summary();
    if (summary) console.info(summary);
    console.info(`device fuzz (${what}): ${runs} runs, seed ${settings.seed}`);
    expect(log.failures).toEqual([]);
  }
});

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
