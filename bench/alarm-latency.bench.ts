/**
 * Publish-to-socket alarm latency: a logger publishes an out-of-range reading over MQTT QoS 1
 * while ten other loggers keep up a background load of about 10 000 readings a second; the clock
 * stops when the administrator's live socket receives the alarm. The server runs in its own
 * process, as `npm start` runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { freePort, postJson, startServerProcess } from '../apps/server/src/test/server-process';

export interface AlarmLatencyFigures {
  label: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  backgroundReadingsPerSecond: number;
}

function percentile(samples: number[], p: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function benchAlarmLatency(
  label: string,
  env: Record<string, string>,
  { samples = 100, backgroundPerSecond = 10_000, backgroundDevices = 10 } = {},
): Promise<AlarmLatencyFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-alarm-'));
  const mqttPort = await freePort();
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO: '1',
    PORT: String(await freePort()),
    MQTT_PORT: String(mqttPort),
    // A few devices stand for a fleet here: each sends far more than one logger's message rate.
    DEVICE_MESSAGES_PER_MINUTE: '100000000',
    ...env,
  });
  const clients: MqttClient[] = [];
  let socket: WebSocket | undefined;
  const timers: NodeJS.Timeout[] = [];
  try {
    const { accessToken } = await postJson<{ accessToken: string }>(server.baseUrl, '/api/doLogin', {
      account: 'demo@example.com',
      password: 'Demo1234',
      type: 1,
      platform: 1,
    });
    const me = await postJson<{ id: string }>(server.baseUrl, '/api/user/userInfo', {}, accessToken);
    const add = (serial: string, name: string) =>
      postJson<{ id: string; deviceKey: string }>(
        server.baseUrl,
        '/api/device/addDevice',
        { serial, name },
        accessToken,
      );
    const connect = async (serial: string, key: string) => {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: serial,
        username: serial,
        password: key,
        reconnectPeriod: 0,
      });
      clients.push(client);
      return client;
    };

    const watched = await add('SIM1020', 'Latency probe');
    const detail = await postJson<{ sensors: { id: string }[] }>(
      server.baseUrl,
      '/api/device/deviceDetail',
      { id: watched.id },
      accessToken,
    );
    await postJson(
      server.baseUrl,
      '/api/deviceAlarmRule/saveAlarmSetting',
      {
        carrier: 'sensor',
        targetId: detail.sensors[0]!.id,
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        // The socket is what is measured; a local notice keeps providers out of the figure.
        channels: [],
        notifierIds: [me.id],
      },
      accessToken,
    );
    const probe = await connect('SIM1020', watched.deviceKey);

    socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/api/ws`);
    await new Promise((resolve, reject) => {
      socket!.once('open', resolve);
      socket!.once('error', reject);
    });
    const arrivals: ((at: number) => void)[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; bindContent?: { deviceSerial?: string } };
      if (message.type === 'alarm' && message.bindContent?.deviceSerial === 'SIM1020')
        arrivals.shift()?.(performance.now());
    });
    socket.send(JSON.stringify({ bindType: 2, bindContent: accessToken }));

    // Background load: each device sends a message of 10 one-channel records every tick.
    const background = await Promise.all(
      Array.from({ length: backgroundDevices }, async (_, i) => {
        const serial = `SIM${1001 + i}`;
        const { deviceKey } = await add(serial, `Load ${serial}`);
        return { serial, client: await connect(serial, deviceKey) };
      }),
    );
    const recordsPerMessage = 10;
    const messagesPerSecondEach = backgroundPerSecond / backgroundDevices / recordsPerMessage;
    let acknowledged = 0;
    let ts = Date.now() - 86_400_000;
    for (const { serial, client } of background) {
      timers.push(
        setInterval(() => {
          const records = Array.from({ length: recordsPerMessage }, () => ({
            ts: ts++,
            channels: [{ ch: 1, v: 5 }],
          }));
          client.publish(`cc/v1/${serial}/up`, JSON.stringify({ records }), { qos: 1 }, (error) => {
            if (!error) acknowledged += recordsPerMessage;
          });
        }, 1000 / messagesPerSecondEach),
      );
    }
    await new Promise((r) => setTimeout(r, 2000)); // let the load settle

    const latencies: number[] = [];
    const loadStarted = performance.now();
    const acknowledgedAtStart = acknowledged;
    for (let i = 0; i < samples; i++) {
      const arrived = new Promise<number>((resolve) => arrivals.push(resolve));
      const sent = performance.now();
      await probe.publishAsync(
        'cc/v1/SIM1020/up',
        JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 9.4 }] }] }),
        { qos: 1 },
      );
      const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 5000));
      const at = await Promise.race([arrived, timeout]);
      if (Number.isNaN(at)) arrivals.shift();
      else latencies.push(at - sent);
      // Back in range ends the excursion, so the next out-of-range reading is a new alarm.
      await probe.publishAsync(
        'cc/v1/SIM1020/up',
        JSON.stringify({ records: [{ ts: Date.now() + 1, channels: [{ ch: 1, v: 5 }] }] }),
        { qos: 1 },
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    return {
      label,
      samples: latencies.length,
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(Math.max(...latencies)),
      backgroundReadingsPerSecond: Math.round((acknowledged - acknowledgedAtStart) / loadSeconds),
    };
  } finally {
    for (const t of timers) clearInterval(t);
    socket?.terminate();
    await Promise.all(clients.map((c) => c.endAsync(true)));
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
