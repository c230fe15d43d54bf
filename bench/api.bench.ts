/**
 * The console's own calls under load: each call a page load makes, driven by autocannon with 50
 * connections against a server started as `npm start` starts it (embedded database, demo data;
 * or on PostgreSQL),
 * next to a bare Node HTTP server answering a fixed envelope in its own process, in the same
 * run. The share (our rate / the bare server's rate) is the figure the speed issue sets goals
 * for; absolute rates change with the host, shares much less.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../apps/server/src/db/client';
import { freePort, postJson, startServerProcess } from '../apps/server/src/test/server-process';
import { cpuSeconds } from './process-cpu';

export interface CallFigures {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not HTTP 200 with msgCode 200 (a bench that measures errors is no bench). */
  failures: number;
  /** requestsPerSecond / the bare server's. */
  share: number;
  /**
   * The server process's CPU (both its threads) per answered request, in µs: steadier than the
   * rate on a host whose speed moves, so a change of a tenth shows in a few runs.
   */
  serverCpuUsPerRequest: number;
}

export interface Target {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** A body per request, for writes that cannot repeat (each resolve needs an alarm still pending). */
  nextBody?: () => unknown;
}

/** The first page of the device and alarm lists, as the console opens them (also loaded beside the fleet). */
export const DEVICE_PAGE: Target = {
  label: 'pageDevices (page of 20)',
  method: 'POST',
  path: '/api/device/pageDevices',
  body: { pageNum: 1, pageSize: 20 },
};
export const ALARM_PAGE: Target = {
  label: 'pageAlarms (page of 20)',
  method: 'POST',
  path: '/api/alarm/pageAlarms',
  body: { pageNum: 1, pageSize: 20 },
};

/** BENCH_CONNECTIONS: concurrent connections per call (default 50, the goals' figure; 1 gives one caller's latency). */
export const API_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** A bare Node HTTP server in its own process: the ceiling of this machine and this client. */
async function startBareServer(port: number) {
  const source = `require('node:http').createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end('{"msgCode":200,"msgContent":"ok","data":null}');
    });
  }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return child;
}

/** Loads one call for `seconds` with `connections` callers (the fleet bench loads the console beside its fleet). */
export async function load(
  baseUrl: string,
  target: Target,
  headers: Record<string, string>,
  seconds: number,
  checkEnvelope: boolean,
  connections = API_CONNECTIONS,
) {
  let failures = 0;
  const result = await autocannon({
    url: `${baseUrl}${target.path}`,
    method: target.method,
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    body: target.body === undefined ? undefined : JSON.stringify(target.body),
    requests: target.nextBody
      ? [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(target.nextBody!()) }) }]
      : undefined,
    setupClient: checkEnvelope
      ? (client) => {
          client.on('body', (body: Buffer) => {
            if (!body.toString('utf8', 0, 40).includes('"msgCode":200')) failures += 1;
          });
        }
      : undefined,
  });
  failures += result.non2xx + result.errors + result.timeouts;
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures,
  };
}

/** Pending alarms the resolve target works through: more than any run resolves. */
const RESOLVE_POOL_PER_SECOND = 2_000;

/**
 * Adds `count` pending alarms to the demo company (copies of its first alarm, already ended so
 * that no channel reads "alarm" because of them), with the server stopped, and returns their ids.
 * A resolve succeeds once per alarm, so the resolve target needs one per request.
 */
async function seedPendingAlarms(store: Store, count: number): Promise<string[]> {
  const database = await openDatabase(
    store.databaseUrl ? { url: store.databaseUrl } : { dataDir: store.dataDir },
  );
  try {
    const rows = await queryRows<{ id: string }>(
      database.db,
      sql`insert into alarm_records (company_id, device_id, sensor_id, setting_id, alarm_type, level,
            alarm_time, excursion_start, dedupe_key, content, count, last_value, resolve_state, end_time)
          select a.company_id, a.device_id, a.sensor_id, a.setting_id, a.alarm_type, a.level,
                 a.alarm_time - make_interval(mins => g), a.excursion_start - make_interval(mins => g),
                 'bench:' || g, a.content, 1, a.last_value, 1, a.alarm_time - make_interval(mins => g - 1)
          from (select * from alarm_records order by id limit 1) a, generate_series(1, ${count}) g
          returning id`,
    );
    // A server keeps statistics within 30 s of a table growing (table-upkeep.ts); the runs after
    // the restart are shorter than that, so the pool is analysed here as a running server would.
    await database.db.execute(sql`analyze alarm_records`);
    return rows.map((r) => String(r.id));
  } finally {
    await database.close();
  }
}

/** Where the server keeps its data: the embedded database in `dataDir`, or PostgreSQL. */
interface Store {
  dataDir: string;
  databaseUrl?: string;
}

async function startDemoServer(store: Store) {
  const port = await freePort();
  const server = await startServerProcess({
    DATA_DIR: store.dataDir,
    DEMO: '1',
    PORT: String(port),
    MQTT_PORT: String(await freePort()),
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
  });
  const { accessToken } = await postJson<{ accessToken: string }>(server.baseUrl, '/api/doLogin', {
    account: 'demo@example.com',
    password: 'Demo1234',
    type: 1,
    platform: 1,
  });
  const stop = async () => {
    if (server.child.exitCode !== null) return;
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  };
  return { ...server, accessToken, headers: { accessToken, language: 'en', platform: '1' }, stop };
}

/** A save of an alarm setting as the console sends it: the setting's view without its null limits. */
function saveBodyOf(setting: Record<string, unknown>) {
  const { deviceId: _device, sensorId: _sensor, ...rest } = setting;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
}

/**
 * `databaseUrl`: an empty PostgreSQL database to run the server on instead of the embedded
 * default (the demo is written into it as into a new data directory).
 */
export async function benchApi({
  seconds = 5,
  databaseUrl,
}: {
  seconds?: number;
  databaseUrl?: string;
} = {}): Promise<{
  ceiling: number;
  calls: CallFigures[];
}> {
  const store: Store = { dataDir: mkdtempSync(path.join(tmpdir(), 'cc-bench-api-')), databaseUrl };
  const barePort = await freePort();
  const bare = await startBareServer(barePort);
  // A server that does not start must not leave the bare one running: the bench would never end.
  let server = await startDemoServer(store).catch((error: unknown) => {
    bare.kill('SIGTERM');
    rmSync(store.dataDir, { recursive: true, force: true });
    throw error;
  });
  try {
    const { accessToken } = server;
    const devices = await postJson<{ list: { id: string }[] }>(
      server.baseUrl,
      '/api/device/pageDevices',
      { pageNum: 1, pageSize: 20 },
      accessToken,
    );
    const deviceId = devices.list[0]?.id;
    if (!deviceId) throw new Error('the demo company has no device');
    const detail = await postJson<Record<string, unknown> & { sensors: { id: string }[] }>(
      server.baseUrl,
      '/api/device/deviceDetail',
      { id: deviceId },
      accessToken,
    );
    const sensorId = detail.sensors[0]?.id;
    const alarms = await postJson<{ list: { id: string }[] }>(
      server.baseUrl,
      '/api/alarm/pageAlarms',
      { pageNum: 1, pageSize: 20 },
      accessToken,
    );
    const alarmId = alarms.list[0]?.id;
    if (!alarmId) throw new Error('the demo company has no alarm');
    const settings = await postJson<{ list: Record<string, unknown>[] }>(
      server.baseUrl,
      '/api/deviceAlarmRule/alarmList',
      { deviceId, pageNum: 1, pageSize: 50 },
      accessToken,
    );
    const setting = settings.list[0];
    if (!setting) throw new Error('the demo device has no alarm setting');
    const now = Date.now();

    const targets: Target[] = [
      { label: 'GET /healthz', method: 'GET', path: '/healthz' },
      { label: 'getUserPowers', method: 'POST', path: '/api/index/getUserPowers', body: {} },
      { label: 'userInfo', method: 'POST', path: '/api/user/userInfo', body: {} },
      DEVICE_PAGE,
      ALARM_PAGE,
      { label: 'alarmDetail', method: 'POST', path: '/api/alarm/alarmDetail', body: { id: alarmId } },
      { label: 'deviceDetail', method: 'POST', path: '/api/device/deviceDetail', body: { id: deviceId } },
      {
        label: 'historyData (a day, maxPoints 1000)',
        method: 'POST',
        path: '/api/device/historyData',
        body: { sensorId, startTime: now - 86_400_000, endTime: now, maxPoints: 1000 },
      },
      {
        label: 'home overview (companyDataInfo)',
        method: 'POST',
        path: '/api/userOrganize/companyDataInfo',
        body: {},
      },
      {
        label: 'notices (userNoticeList)',
        method: 'POST',
        path: '/api/user/userNoticeList',
        body: { pageNum: 1, pageSize: 10 },
      },
      {
        label: 'editDevice (a write)',
        method: 'POST',
        path: '/api/device/editDevice',
        body: {
          id: deviceId,
          name: String(detail.name),
          departmentId: detail.departmentId ?? null,
          groupId: detail.groupId ?? null,
          recordInterval: detail.recordInterval,
          uploadInterval: detail.uploadInterval,
          alarmVerifyInterval: detail.alarmVerifyInterval,
          offlineJudgement: detail.offlineJudgement,
        },
      },
      {
        label: 'saveAlarmSetting (a write)',
        method: 'POST',
        path: '/api/deviceAlarmRule/saveAlarmSetting',
        body: saveBodyOf(setting),
      },
    ];

    const bareFigures = await load(
      `http://127.0.0.1:${barePort}`,
      { label: 'bare', method: 'POST', path: '/', body: {} },
      {},
      seconds,
      false,
    );
    const calls: CallFigures[] = [];
    const measure = async (target: Target) => {
      const cpuBefore = cpuSeconds(server.child.pid!);
      const { requests, ...figures } = await load(
        server.baseUrl,
        target,
        server.headers,
        seconds,
        target.path !== '/healthz',
      );
      calls.push({
        label: target.label,
        ...figures,
        share: figures.requestsPerSecond / bareFigures.requestsPerSecond,
        serverCpuUsPerRequest: Math.round(
          ((cpuSeconds(server.child.pid!) - cpuBefore) / Math.max(1, requests)) * 1e6,
        ),
      });
    };
    // BENCH_API_CALLS (e.g. `editDevice,historyData`): only the calls whose label holds one of them.
    const chosen = (process.env.BENCH_API_CALLS ?? '').split(',').filter(Boolean);
    const wanted = (label: string) => chosen.length === 0 || chosen.some((c) => label.includes(c));
    for (const target of targets) if (wanted(target.label)) await measure(target);

    if (!wanted('resolveAlarm') && !wanted('more alarms'))
      return { ceiling: bareFigures.requestsPerSecond, calls };
    // Resolving needs a pending alarm per request: the server is stopped, a pool of pending alarms
    // is written into its database, and it starts again on the same data.
    await server.stop();
    const pending = await seedPendingAlarms(store, RESOLVE_POOL_PER_SECOND * seconds);
    server = await startDemoServer(store);
    let next = 0;
    await measure({
      label: 'resolveAlarm (a write)',
      method: 'POST',
      path: '/api/alarm/resolveAlarm',
      nextBody: () => ({ id: pending[next++ % pending.length], resolveType: 'bench', cause: 'bench' }),
    });
    await measure({
      label: `pageAlarms (page of 20, ${pending.length} more alarms)`,
      method: 'POST',
      path: '/api/alarm/pageAlarms',
      body: { pageNum: 1, pageSize: 20 },
    });
    return { ceiling: bareFigures.requestsPerSecond, calls };
  } finally {
    bare.kill('SIGTERM');
    await server.stop();
    rmSync(store.dataDir, { recursive: true, force: true });
  }
}
