/**
 * The fleet on the scale-out path (issue 21 item 6): PostgreSQL, an external Mosquitto and two
 * server instances that consume the devices' messages through one shared subscription
 * (MQTT_URL, MQTT_SHARE_GROUP), as docs/deployment.md lays them out. Devices are simulated as in
 * fleet.bench.ts (many MQTT connections per process), provisioned through the product's paths.
 *
 * Figures: readings sent and stored per second (stored counted in the database: the broker's
 * PUBACK says only that Mosquitto has the message), both instances' CPU and RSS per 1,000
 * devices, Mosquitto's, the alarm latency from a probe's publish to the live socket of the other
 * instance, and the time for every device to be acknowledged again after a broker restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { freePort, type ServerProcess, startServerProcess } from '../apps/server/src/test/server-process';
import { type AlarmProbe, rssMb, startAlarmProbe } from './alarm-probe';
import {
  addDevices,
  assertOpenFileLimit,
  collect,
  DEVICES_PER_PROCESS,
  importInventory,
  type LatencyFigures,
  latencyFigures,
  login,
  Simulator,
} from './fleet.bench';
import { cpuSeconds } from './process-cpu';

export interface ClusterFigures {
  label: string;
  connectSeconds: number;
  sentPerSecond: number;
  storedPerSecond: number;
  /** Both instances together, as a share of one core, per 1,000 devices. */
  cpuPerThousand: number;
  /** The larger instance's resident memory at its peak, and both per 1,000 devices. */
  rssMb: number[];
  rssPerThousandMb: number;
  brokerCpu: number;
  brokerRssMb: number;
  alarm: LatencyFigures & { missed: number };
  /** From the restarted broker's first answer to every device connected again. */
  reconnectSeconds: number;
  /** ... and to every device's next reading acknowledged (at most one interval later). */
  ackedSeconds: number;
  notBack: number;
}

function startMosquitto(dir: string, port: number): ChildProcess {
  const conf = path.join(dir, 'mosquitto.conf');
  // Devices are not authenticated by this bench's broker: what is measured is the platform's side.
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 100000',
      'set_tcp_nodelay true',
      'log_dest none',
    ].join('\n'),
  );
  return spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
}

async function portAnswers(port: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing answers on port ${port}`);
}

async function storedReadings(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select count(*) as n from readings');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

export async function benchFleetCluster(
  label: string,
  options: { devices: number; intervalS: number; seconds: number; databaseUrl: string },
): Promise<ClusterFigures> {
  const { devices, intervalS, seconds, databaseUrl } = options;
  assertOpenFileLimit(devices);
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-bench-cluster-'));
  const brokerPort = await freePort();
  const mqttUrl = `mqtt://127.0.0.1:${brokerPort}`;
  let broker = startMosquitto(dir, brokerPort);
  const instances: ServerProcess[] = [];
  const simulators: Simulator[] = [];
  let probe: AlarmProbe | null = null;
  try {
    await portAnswers(brokerPort);
    const env = { DATABASE_URL: databaseUrl, MQTT_URL: mqttUrl, DEMO: '1' };
    const serials = Array.from({ length: devices }, (_, i) => `FLT${String(i + 1).padStart(6, '0')}`);
    await importInventory(dir, serials, env);
    // One after the other: the first runs the migrations and seeds the demo.
    for (const name of ['a', 'b'])
      instances.push(
        await startServerProcess({ ...env, DATA_DIR: path.join(dir, name), PORT: String(await freePort()) }),
      );
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const token = await login(a.baseUrl);
    const fleet = await addDevices(a.baseUrl, token, serials, intervalS);
    probe = await startAlarmProbe({ baseUrl: a.baseUrl, socketBaseUrl: b.baseUrl, token, mqttUrl });

    for (let i = 0; i < fleet.length; i += DEVICES_PER_PROCESS) {
      const simulator = Simulator.start();
      simulators.push(simulator);
      await simulator.call({
        cmd: 'setup',
        port: brokerPort,
        localAddresses: [`127.0.0.${2 * simulators.length + 1}`, `127.0.0.${2 * simulators.length + 2}`],
        devices: fleet.slice(i, i + DEVICES_PER_PROCESS),
        intervalMs: intervalS * 1000,
      });
    }
    const connectStarted = Date.now();
    await Promise.all(simulators.map((s) => s.call({ cmd: 'connect', concurrency: 200 })));
    const connectSeconds = Math.round((Date.now() - connectStarted) / 100) / 10;
    await Promise.all(simulators.map((s) => s.call({ cmd: 'start' })));
    await new Promise((r) => setTimeout(r, Math.max(10, intervalS + 5) * 1000));
    await collect(simulators);

    const pids = instances.map((i) => i.child.pid!);
    const cpuBefore = pids.map((pid) => cpuSeconds(pid));
    const brokerCpuBefore = cpuSeconds(broker.pid!);
    const storedBefore = await storedReadings(databaseUrl);
    const started = performance.now();
    const sampling = probe.sample(started + seconds * 1000);
    const rss = pids.map(() => 0);
    let sent = 0;
    while (performance.now() - started < seconds * 1000) {
      await new Promise((r) => setTimeout(r, 5000));
      for (const s of await collect(simulators)) sent += s.latencies.length;
      for (const [i, pid] of pids.entries()) rss[i] = Math.max(rss[i]!, rssMb(pid));
    }
    const { latencies, missed } = await sampling;
    const elapsed = (performance.now() - started) / 1000;
    const storedAfter = await storedReadings(databaseUrl);
    const cpu = pids.reduce((sum, pid, i) => sum + (cpuSeconds(pid) - cpuBefore[i]!), 0) / elapsed;
    const figures: ClusterFigures = {
      label,
      connectSeconds,
      sentPerSecond: Math.round(sent / elapsed),
      storedPerSecond: Math.round((storedAfter - storedBefore) / elapsed),
      cpuPerThousand: Math.round((cpu / devices) * 1000 * 1000) / 1000,
      rssMb: rss,
      rssPerThousandMb: Math.round(((rss[0]! + rss[1]!) / devices) * 1000 * 10) / 10,
      brokerCpu: Math.round(((cpuSeconds(broker.pid!) - brokerCpuBefore) / elapsed) * 1000) / 1000,
      brokerRssMb: rssMb(broker.pid!),
      alarm: { ...latencyFigures(latencies), missed },
      reconnectSeconds: Number.NaN,
      ackedSeconds: Number.NaN,
      notBack: devices,
    };

    // The broker restarts (an upgrade, a crash): every device loses it at once and comes back.
    await Promise.all(simulators.map((s) => s.call({ cmd: 'silence' })));
    broker.kill('SIGTERM');
    await new Promise((r) => broker.once('exit', r));
    broker = startMosquitto(dir, brokerPort);
    await portAnswers(brokerPort);
    await collect(simulators);
    const restarted = Date.now();
    const reconnecting = Promise.all(simulators.map((s) => s.call({ cmd: 'reconnect' })));
    while (Date.now() - restarted < 120_000) {
      await new Promise((r) => setTimeout(r, 500));
      const stats = await collect(simulators);
      const seconds = Math.round((Date.now() - restarted) / 100) / 10;
      if (
        Number.isNaN(figures.reconnectSeconds) &&
        stats.reduce((sum, s) => sum + s.connected, 0) === devices
      )
        figures.reconnectSeconds = seconds;
      figures.notBack = devices - stats.reduce((sum, s) => sum + s.ackedSinceReconnect, 0);
      if (figures.notBack === 0) {
        figures.ackedSeconds = seconds;
        break;
      }
    }
    await reconnecting;
    return figures;
  } finally {
    await probe?.close().catch(() => undefined);
    await Promise.all(simulators.map((s) => s.exit()));
    for (const instance of instances) {
      instance.child.kill('SIGTERM');
      if (instance.child.exitCode === null) await new Promise((r) => instance.child.once('exit', r));
    }
    broker.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
