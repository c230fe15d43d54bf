/**
 * A fleet of many quiet loggers (issue 23): N devices connected at once, each sending one reading
 * every `intervalS`, against a server run as `npm start` runs it. The devices are provisioned
 * through the product's own paths: the supplier's stock list through `npm run admin -- inventory
 * import`, then `addDevice` and `editDevice` (upload interval) through the console API with the
 * demo administrator's login. Simulated loggers (fleet-devices.ts) run in child processes.
 *
 * Figures: the server's CPU (main and database threads together) as a share of one core, PUBACK
 * p50 / p99 / max, and the acknowledgements slower than 1 s (a stall shows there); then, for a
 * restart, the time for the whole fleet, first marked offline, to reconnect and be acknowledged.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  freePort,
  postJson,
  type ServerProcess,
  startServerProcess,
} from '../apps/server/src/test/server-process';
import { type AlarmProbe, rssMb, startAlarmProbe } from './alarm-probe';
import { type ConsoleCallFigures, loadConsoleBesideFleet } from './fleet-console';
import type { FleetCommand, FleetDevice, FleetStats } from './fleet-devices';
import { cpuSeconds } from './process-cpu';

const root = path.resolve(import.meta.dirname, '..');

export interface FleetOptions {
  devices: number;
  intervalS: number;
  /** Seconds measured after the fleet is connected and has warmed up. */
  seconds: number;
  /** Also stop and restart the server and time the whole fleet coming back. */
  restart: boolean;
  /** Extra environment for the server (DATABASE_URL for PostgreSQL). */
  env?: Record<string, string>;
  /** A directory kept between runs: the provisioned fleet is reused (embedded database only). */
  keepDir?: string;
  /** Also load the console's page-load calls beside the fleet, after the steady window (fleet-console.ts). */
  console?: { connections: number; seconds: number } | null;
}

export interface LatencyFigures {
  acks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Acknowledgements that took more than a second. */
  overOneSecond: number;
}

export interface FleetFigures {
  label: string;
  provisionSeconds: number | null;
  connectSeconds: number;
  messagesPerSecond: number;
  /** Server process CPU over the window, as a share of one core (1 = one core busy). */
  serverCpu: number;
  /** The simulated devices' own CPU, for scale. */
  devicesCpu: number;
  steady: LatencyFigures;
  /** Per 5-second slice: the worst acknowledgement, to see stalls. */
  worstPerSlice: number[];
  dropped: number;
  /** The server's resident memory at its peak over the window. */
  rssMb: number;
  /** What that peak is above the server's memory before the fleet connected, per device (KB). */
  rssPerDeviceKb: number;
  /** Publish-to-socket alarm latency under the fleet's load (a freshly provisioned fleet only). */
  alarm: (LatencyFigures & { missed: number }) | null;
  /** The console's calls beside the fleet, and the fleet's acknowledgements meanwhile. */
  console?: { connections: number; calls: ConsoleCallFigures[]; fleet: LatencyFigures };
  restart?: {
    offlineSeconds: number;
    /** From the first reconnection to every device acknowledged once. */
    absorbedSeconds: number;
    /** From the first reconnection to every device's CONNACK (the server paces them). */
    connectedSeconds: number;
    /** Devices not acknowledged within 60 s. */
    notBack: number;
    latency: LatencyFigures;
    onlineSeconds: number;
  };
}

/** Sockets a process may hold besides the devices' (files, the database, HTTP). */
const FD_MARGIN = 1_000;
/** Connections per simulator process: its devices' own local ports (fleet-devices.ts) stay below the ephemeral range. */
export const DEVICES_PER_PROCESS = 20_000;

/** The soft limit of open files of this process, which children inherit. */
export function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s+/)[3];
    return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Refuses to start a fleet the process limits cannot hold, saying what to do. */
export function assertOpenFileLimit(devices: number) {
  const limit = openFileLimit();
  const needed = devices + FD_MARGIN;
  if (limit < needed) {
    throw new Error(
      `The fleet benchmark holds ${devices} device connections in the server process, which needs ` +
        `at least ${needed} open files, and this shell allows ${limit} (ulimit -n). Raise it first, ` +
        `for example: ulimit -n ${Math.max(needed, 65_536)} && npm run bench -- fleet ` +
        `(above the hard limit, ulimit -Hn, only root can raise it; or set BENCH_FLEET to a smaller fleet).`,
    );
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export function latencyFigures(latencies: number[]): LatencyFigures {
  const sorted = Float64Array.from(latencies).sort();
  const list = Array.from(sorted);
  return {
    acks: list.length,
    p50Ms: round(percentile(list, 50)),
    p99Ms: round(percentile(list, 99)),
    maxMs: round(list.at(-1) ?? 0),
    overOneSecond: list.filter((ms) => ms > 1000).length,
  };
}

/** A simulator process and a promise-based call to it. */
export class Simulator {
  private nextId = 1;
  private readonly waiting = new Map<number, (value: unknown) => void>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const resolve = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      resolve?.(message.error ? Promise.reject(new Error(message.error)) : message.result);
    });
  }

  static start(): Simulator {
    const child = fork(path.join(import.meta.dirname, 'fleet-devices.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Simulator(child);
  }

  /** Closes its connections and waits until the process has exited. */
  async exit(): Promise<void> {
    this.child.send({ id: 0, command: { cmd: 'exit' } });
    if (this.child.exitCode === null) await new Promise((r) => this.child.once('exit', r));
  }

  call<T>(command: FleetCommand): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve as (value: unknown) => void);
      this.child.send({ id, command });
    });
  }
}

async function runNode(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${args.join(' ')} failed: ${output}`);
  return output;
}

/** The stock list goes in as a supplier's would, in files of 10 000 lines. */
export async function importInventory(dataDir: string, serials: string[], env: Record<string, string>) {
  for (let i = 0; i < serials.length; i += 10_000) {
    const file = path.join(dataDir, `inventory-${i}.csv`);
    const lines = serials
      .slice(i, i + 10_000)
      .map((serial) => `${serial},CC-T1,standard,temperature:°C:-40:85`);
    writeFileSync(file, ['serial,model,version,channels', ...lines].join('\n'));
    await runNode(['apps/server/src/admin.ts', 'inventory', 'import', file], { DATA_DIR: dataDir, ...env });
    rmSync(file);
  }
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function login(baseUrl: string): Promise<string> {
  const { accessToken } = await postJson<{ accessToken: string }>(baseUrl, '/api/doLogin', {
    account: 'demo@example.com',
    password: 'Demo1234',
    type: 1,
    platform: 1,
  });
  return accessToken;
}

/** addDevice and editDevice (the upload interval the server judges offline by) for each serial. */
export async function addDevices(
  baseUrl: string,
  token: string,
  serials: string[],
  intervalS: number,
): Promise<FleetDevice[]> {
  const fleet: FleetDevice[] = [];
  let done = 0;
  await inParallel(serials, 8, async (serial) => {
    const name = `Fleet ${serial}`;
    const { id, deviceKey } = await postJson<{ id: string; deviceKey: string }>(
      baseUrl,
      '/api/device/addDevice',
      { serial, name },
      token,
    );
    await postJson(
      baseUrl,
      '/api/device/editDevice',
      {
        id,
        name,
        recordInterval: intervalS,
        uploadInterval: intervalS,
        alarmVerifyInterval: intervalS,
        offlineJudgement: 3,
      },
      token,
    );
    fleet.push({ serial, key: deviceKey });
    if (++done % 5_000 === 0) console.log(`  … ${done} devices added`);
  });
  return fleet;
}

async function countByState(baseUrl: string, token: string): Promise<Record<string, number>> {
  return postJson<Record<string, number>>(baseUrl, '/api/device/countGroupByState', {}, token);
}

export async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function startServer(
  dataDir: string,
  ports: { port: number; mqttPort: number },
  env: Record<string, string>,
) {
  return startServerProcess({
    DATA_DIR: dataDir,
    DEMO: '1',
    PORT: String(ports.port),
    MQTT_PORT: String(ports.mqttPort),
    ...env,
  });
}

async function stopServer(server: ServerProcess) {
  server.child.kill('SIGTERM');
  if (server.child.exitCode === null) await new Promise((r) => server.child.once('exit', r));
}

export async function collect(simulators: Simulator[]): Promise<FleetStats[]> {
  return Promise.all(simulators.map((s) => s.call<FleetStats>({ cmd: 'stats' })));
}

export async function benchFleet(label: string, options: FleetOptions): Promise<FleetFigures> {
  const { devices, intervalS, seconds } = options;
  assertOpenFileLimit(devices);
  const env = options.env ?? {};
  const dataDir = options.keepDir ?? mkdtempSync(path.join(tmpdir(), 'cc-bench-fleet-'));
  mkdirSync(dataDir, { recursive: true });
  const fleetFile = path.join(dataDir, `fleet-${devices}x${intervalS}.json`);
  const ports = { port: await freePort(), mqttPort: await freePort() };
  const simulators: Simulator[] = [];
  let server: ServerProcess | null = null;
  let probe: AlarmProbe | null = null;
  try {
    let fleet: FleetDevice[];
    let provisionSeconds: number | null = null;
    const reuse = options.keepDir !== undefined && existsSync(fleetFile);
    if (reuse) {
      fleet = JSON.parse(readFileSync(fleetFile, 'utf8')) as FleetDevice[];
      server = await startServer(dataDir, ports, env);
    } else {
      const started = Date.now();
      const serials = Array.from({ length: devices }, (_, i) => `FLT${String(i + 1).padStart(6, '0')}`);
      await importInventory(dataDir, serials, env);
      server = await startServer(dataDir, ports, env);
      fleet = await addDevices(server.baseUrl, await login(server.baseUrl), serials, intervalS);
      provisionSeconds = Math.round((Date.now() - started) / 1000);
      if (options.keepDir) writeFileSync(fleetFile, JSON.stringify(fleet));
    }
    const token = await login(server.baseUrl);
    // The probe is a spare demo logger, added once: a reused fleet's directory has it already.
    if (!reuse)
      probe = await startAlarmProbe({
        baseUrl: server.baseUrl,
        socketBaseUrl: server.baseUrl,
        token,
        mqttUrl: `mqtt://127.0.0.1:${ports.mqttPort}`,
      });

    const rssUnconnectedMb = rssMb(server.child.pid!);
    for (let i = 0; i < fleet.length; i += DEVICES_PER_PROCESS) {
      const simulator = Simulator.start();
      simulators.push(simulator);
      await simulator.call({
        cmd: 'setup',
        port: ports.mqttPort,
        // Each process its own local addresses (one per connection round), and each device its
        // own port on them (fleet-devices.ts).
        localAddresses: [`127.0.0.${2 * simulators.length + 1}`, `127.0.0.${2 * simulators.length + 2}`],
        devices: fleet.slice(i, i + DEVICES_PER_PROCESS),
        intervalMs: intervalS * 1000,
      });
    }
    const connectStarted = Date.now();
    await Promise.all(simulators.map((s) => s.call({ cmd: 'connect', concurrency: 200 })));
    const connectSeconds = (Date.now() - connectStarted) / 1000;
    await Promise.all(simulators.map((s) => s.call({ cmd: 'start' })));
    // One interval for every device to have sent once, and the caches to have filled.
    await new Promise((r) => setTimeout(r, Math.max(10, intervalS + 5) * 1000));
    await collect(simulators);

    const serverPid = server.child.pid!;
    const cpuBefore = cpuSeconds(serverPid);
    const devicesCpuBefore = simulators.reduce((sum, s) => sum + cpuSeconds(s.child.pid!), 0);
    const windowStarted = Date.now();
    const sampling = probe?.sample(performance.now() + seconds * 1000);
    let peakRss = 0;
    const latencies: number[] = [];
    const worstPerSlice: number[] = [];
    let dropped = 0;
    let acksBefore = 0;
    let acksAfter = 0;
    for (let t = 0; t < seconds; t += 5) {
      await new Promise((r) => setTimeout(r, 5000));
      const stats = await collect(simulators);
      let worst = 0;
      for (const s of stats) {
        for (const ms of s.latencies) latencies.push(ms);
        worst = Math.max(worst, ...s.latencies, s.waiting > 0 ? s.oldestWaitingMs : 0);
        dropped += s.dropped + s.refused;
      }
      worstPerSlice.push(Math.round(worst));
      peakRss = Math.max(peakRss, rssMb(serverPid));
      if (t === 0) acksBefore = stats.reduce((sum, s) => sum + s.acked - s.latencies.length, 0);
      acksAfter = stats.reduce((sum, s) => sum + s.acked, 0);
    }
    const elapsed = (Date.now() - windowStarted) / 1000;
    const serverCpu = (cpuSeconds(serverPid) - cpuBefore) / elapsed;
    const devicesCpu =
      (simulators.reduce((sum, s) => sum + cpuSeconds(s.child.pid!), 0) - devicesCpuBefore) / elapsed;
    const figures: FleetFigures = {
      label,
      provisionSeconds,
      connectSeconds: Math.round(connectSeconds * 10) / 10,
      messagesPerSecond: Math.round((acksAfter - acksBefore) / elapsed),
      serverCpu: Math.round(serverCpu * 1000) / 1000,
      devicesCpu: Math.round(devicesCpu * 1000) / 1000,
      steady: latencyFigures(latencies),
      worstPerSlice,
      dropped,
      rssMb: peakRss,
      rssPerDeviceKb: Math.round(((peakRss - rssUnconnectedMb) * 1024) / devices),
      alarm: null,
    };
    if (sampling) {
      const { latencies: alarmLatencies, missed } = await sampling;
      figures.alarm = { ...latencyFigures(alarmLatencies), missed };
    }
    await probe?.close();
    probe = null;

    if (options.console) {
      const beside = await loadConsoleBesideFleet({
        baseUrl: server.baseUrl,
        token,
        ...options.console,
        fleetLatencies: async () => (await collect(simulators)).flatMap((s) => s.latencies),
      });
      figures.console = {
        connections: beside.connections,
        calls: beside.calls,
        fleet: latencyFigures(beside.fleetLatencies),
      };
    }

    if (options.restart) {
      const offlineBefore = (await countByState(server.baseUrl, token))['4'] ?? 0;
      // The whole fleet loses the server: it is restarted, and the devices stay away until the
      // server has judged every one of them offline (upload interval x offline judgement).
      await Promise.all(simulators.map((s) => s.call({ cmd: 'silence' })));
      await stopServer(server);
      server = await startServer(dataDir, ports, env);
      const restartToken = await login(server.baseUrl);
      const silenced = Date.now();
      await waitFor('every device to be judged offline', 10 * 60_000, async () => {
        const counts = await countByState(server!.baseUrl, restartToken);
        return (counts['4'] ?? 0) >= offlineBefore + devices;
      });
      const offlineSeconds = Math.round((Date.now() - silenced) / 1000);
      await collect(simulators);
      const reconnected = Date.now();
      // Every device at once, each with the readings it took meanwhile.
      let connectedSeconds = Number.NaN;
      const reconnecting = Promise.all(simulators.map((s) => s.call({ cmd: 'reconnect' }))).then(() => {
        connectedSeconds = Math.round((Date.now() - reconnected) / 100) / 10;
      });
      const stormLatencies: number[] = [];
      let absorbedSeconds = Number.NaN;
      let notBack = devices;
      while (Date.now() - reconnected < 60_000) {
        await new Promise((r) => setTimeout(r, 500));
        const stats = await collect(simulators);
        for (const s of stats) for (const ms of s.latencies) stormLatencies.push(ms);
        notBack = devices - stats.reduce((sum, s) => sum + s.ackedSinceReconnect, 0);
        if (notBack === 0) {
          absorbedSeconds = Math.round((Date.now() - reconnected) / 100) / 10;
          break;
        }
      }
      await reconnecting;
      let onlineSeconds = Number.NaN;
      await waitFor('every device back online', 120_000, async () => {
        const counts = await countByState(server!.baseUrl, restartToken);
        const back = (counts['4'] ?? 0) <= offlineBefore;
        if (back) onlineSeconds = Math.round((Date.now() - reconnected) / 100) / 10;
        return back;
      }).catch(() => undefined);
      figures.restart = {
        offlineSeconds,
        absorbedSeconds,
        connectedSeconds,
        notBack,
        latency: latencyFigures(stormLatencies),
        onlineSeconds,
      };
    }
    return figures;
  } finally {
    await probe?.close().catch(() => undefined);
    await Promise.all(simulators.map((s) => s.exit()));
    if (server) await stopServer(server);
    if (!options.keepDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `BENCH_FLEET` = fleets as `<devices>x<interval s>`, comma-separated (default 10000x10,50000x60). */
export function fleetsFromEnv(): { devices: number; intervalS: number }[] {
  return (process.env.BENCH_FLEET ?? '10000x10,50000x60').split(',').map((spec) => {
    const [devices, intervalS] = spec.trim().split('x').map(Number);
    if (!devices || !intervalS)
      throw new Error(`BENCH_FLEET: "${spec}" is not <devices>x<interval s>, e.g. 10000x10`);
    return { devices, intervalS };
  });
}
