/**
 * An alarm probe for the fleet benchmarks: one spare logger (SIM1020, from the demo's stock) with
 * an over-limit rule, which publishes an out-of-range reading now and then while the fleet runs,
 * and the administrator's live socket, which stops the clock when the alarm arrives. Then a
 * reading back in range ends the excursion, so the next one raises a new alarm. The probe's
 * broker may be the server's own or an external one, and its socket may be on another instance:
 * then the figure includes the fan-out between instances.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { postJson } from '../apps/server/src/test/server-process';

const SERIAL = 'SIM1020';
/** Out-of-range readings are this far apart: two messages each, under the device's 120 a minute. */
const GAP_MS = 1_500;

export interface AlarmProbe {
  /** Samples until `untilMs` (performance.now() clock); latencies in ms, NaN-free. */
  sample(untilMs: number): Promise<{ latencies: number[]; missed: number }>;
  close(): Promise<void>;
}

export async function startAlarmProbe(options: {
  /** The instance the probe is added through. */
  baseUrl: string;
  /** The instance whose live socket listens (another one, to measure the fan-out too). */
  socketBaseUrl: string;
  token: string;
  mqttUrl: string;
}): Promise<AlarmProbe> {
  const { baseUrl, token } = options;
  const me = await postJson<{ id: string }>(baseUrl, '/api/user/userInfo', {}, token);
  const device = await postJson<{ id: string; deviceKey: string }>(
    baseUrl,
    '/api/device/addDevice',
    { serial: SERIAL, name: 'Alarm probe' },
    token,
  );
  const detail = await postJson<{ sensors: { id: string }[] }>(
    baseUrl,
    '/api/device/deviceDetail',
    { id: device.id },
    token,
  );
  await postJson(
    baseUrl,
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
    token,
  );
  const client: MqttClient = await mqtt.connectAsync(options.mqttUrl, {
    clientId: SERIAL,
    username: SERIAL,
    password: device.deviceKey,
    reconnectPeriod: 0,
  });
  const socket = new WebSocket(`${options.socketBaseUrl.replace('http', 'ws')}/api/ws`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const arrivals: ((at: number) => void)[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; bindContent?: { deviceSerial?: string } };
    if (message.type === 'alarm' && message.bindContent?.deviceSerial === SERIAL)
      arrivals.shift()?.(performance.now());
  });
  socket.send(JSON.stringify({ bindType: 2, bindContent: token }));
  const publish = (v: number, ts: number) =>
    client.publishAsync(
      `cc/v1/${SERIAL}/up`,
      JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v }] }] }),
      {
        qos: 1,
      },
    );

  return {
    async sample(untilMs) {
      const latencies: number[] = [];
      let missed = 0;
      while (performance.now() < untilMs) {
        const arrived = new Promise<number>((resolve) => arrivals.push(resolve));
        const sent = performance.now();
        await publish(9.4, Date.now());
        const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 5000));
        const at = await Promise.race([arrived, timeout]);
        if (Number.isNaN(at)) {
          arrivals.shift();
          missed++;
        } else latencies.push(at - sent);
        await publish(5, Date.now() + 1);
        await new Promise((r) => setTimeout(r, Math.max(0, GAP_MS - (performance.now() - sent))));
      }
      return { latencies, missed };
    },
    async close() {
      socket.terminate();
      await client.endAsync(true);
    },
  };
}

/** A memory figure of a process from /proc, in MB: resident now (VmRSS) or at its peak (VmHWM). */
export function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

/** Resident memory of a process, in MB, from /proc. */
export function rssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}
