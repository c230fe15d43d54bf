/**
 * The console's own calls under load: each call a page load makes, driven by autocannon with 50
 * connections against a server started as `npm start` starts it (embedded database, demo data),
 * next to a bare Node HTTP server answering a fixed envelope in its own process, in the same
 * run. The share (our rate / the bare server's rate) is the figure the speed issue sets goals
 * for; absolute rates change with the host, shares much less.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, postJson, startServerProcess } from '../apps/server/src/test/server-process';

export interface CallFigures {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not HTTP 200 with msgCode 200 (a bench that measures errors is no bench). */
  failures: number;
  /** requestsPerSecond / the bare server's. */
  share: number;
}

interface Target {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

const CONNECTIONS = 50;

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

async function load(
  baseUrl: string,
  target: Target,
  headers: Record<string, string>,
  seconds: number,
  checkEnvelope: boolean,
) {
  let failures = 0;
  const result = await autocannon({
    url: `${baseUrl}${target.path}`,
    method: target.method,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    body: target.body === undefined ? undefined : JSON.stringify(target.body),
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
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures,
  };
}

export async function benchApi({ seconds = 5 } = {}): Promise<{ ceiling: number; calls: CallFigures[] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-api-'));
  const port = await freePort();
  const barePort = await freePort();
  const bare = await startBareServer(barePort);
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO: '1',
    PORT: String(port),
    MQTT_PORT: String(await freePort()),
  });
  try {
    const { accessToken } = await postJson<{ accessToken: string }>(server.baseUrl, '/api/doLogin', {
      account: 'demo@example.com',
      password: 'Demo1234',
      type: 1,
      platform: 1,
    });
    const headers = { accessToken, language: 'en', platform: '1' };
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
    const now = Date.now();

    const targets: Target[] = [
      { label: 'GET /healthz', method: 'GET', path: '/healthz' },
      { label: 'getUserPowers', method: 'POST', path: '/api/index/getUserPowers', body: {} },
      { label: 'userInfo', method: 'POST', path: '/api/user/userInfo', body: {} },
      {
        label: 'pageDevices (page of 20)',
        method: 'POST',
        path: '/api/device/pageDevices',
        body: { pageNum: 1, pageSize: 20 },
      },
      {
        label: 'pageAlarms (page of 20)',
        method: 'POST',
        path: '/api/alarm/pageAlarms',
        body: { pageNum: 1, pageSize: 20 },
      },
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
    ];

    const bareFigures = await load(
      `http://127.0.0.1:${barePort}`,
      { label: 'bare', method: 'POST', path: '/', body: {} },
      {},
      seconds,
      false,
    );
    const calls: CallFigures[] = [];
    for (const target of targets) {
      const figures = await load(server.baseUrl, target, headers, seconds, target.path !== '/healthz');
      calls.push({
        label: target.label,
        ...figures,
        share: figures.requestsPerSecond / bareFigures.requestsPerSecond,
      });
    }
    return { ceiling: bareFigures.requestsPerSecond, calls };
  } finally {
    bare.kill('SIGTERM');
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
