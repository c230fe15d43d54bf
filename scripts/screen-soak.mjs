// Memory soak of the data screen (/screen): a wall screen must run for weeks without growing.
// Starts the server (as `npm start` does: embedded database, demo fleet, the built console copied
// aside so a rebuild during the run cannot change it) on free ports, opens /screen in one headless
// Chromium at 1920x1080 signed in as the demo administrator, and for SOAK_MINUTES keeps feeding it:
// a monitor of its own alternates over and under its 8 °C limit every ALARM_EVERY_S seconds (each
// excursion a new open alarm, pushed live), a second monitor sends readings, and the demo fleet
// runs as usual. Every SAMPLE_EVERY_S seconds it forces a garbage collection in the page (CDP
// HeapProfiler.collectGarbage) and samples Performance.getMetrics: JS heap used, DOM nodes, event
// listeners. One JSON line per sample on stdout and in SOAK_OUT; a summary at the end.
//
//   node scripts/screen-soak.mjs                        # 60 minutes
//   SOAK_MINUTES=5 SAMPLE_EVERY_S=30 node scripts/screen-soak.mjs
//   SOAK_SNAPSHOTS=/tmp/soak node scripts/screen-soak.mjs   # heap snapshots at the start and end
//
// Low CPU on purpose (a shared machine): run it under `nice -n 10` (the server and Chromium inherit
// it), one page, one alarm change per ALARM_EVERY_S, and the page prefers reduced motion (the alarm tiles' pulse is a
// compositor animation that costs CPU and no memory). Needs `npm run build -w apps/web` first.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const SAMPLE_EVERY_S = Number(process.env.SAMPLE_EVERY_S ?? 60);
const ALARM_EVERY_S = Number(process.env.ALARM_EVERY_S ?? 20);
const OUT = process.env.SOAK_OUT ?? path.join(tmpdir(), `screen-soak-${Date.now()}.jsonl`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREEN_PATH = process.env.SOAK_PATH ?? '/screen';
/** A directory for heap snapshots after the first sample and at the end (none when unset). */
const SNAPSHOTS = process.env.SOAK_SNAPSHOTS ?? '';
const DEMO = { account: 'demo@example.com', password: 'Demo1234' };
const ALARM_SERIAL = 'SIM1019';
const READING_SERIAL = 'SIM1018';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line) => process.stdout.write(`${line}\n`);

const cleanups = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch {
      // best effort
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopRequested = true;
  });
}
let stopRequested = false;

async function startServer() {
  const dist = path.join(root, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html')))
    throw new Error('build the console first: npm run build -w apps/web');
  const webDist = mkdtempSync(path.join(tmpdir(), 'cc-soak-web-'));
  cpSync(dist, webDist, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-soak-data-'));
  cleanups.push(() => rmSync(webDist, { recursive: true, force: true }));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const mqttPort = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-20_000)));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await sleep(2000);
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { baseUrl, child, output: () => output };
    } catch {
      // not yet
    }
    await sleep(250);
  }
  throw new Error(`server did not start: ${output}`);
}

async function post(baseUrl, url, body, session) {
  const headers = { 'content-type': 'application/json', platform: '1', language: 'en' };
  if (session?.token) headers.accessToken = session.token;
  if (session?.companyId) headers.companyId = session.companyId;
  const response = await fetch(`${baseUrl}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const envelope = await response.json();
  if (envelope.msgCode !== 200) throw new Error(`${url}: ${envelope.msgCode} ${envelope.msgContent}`);
  return envelope.data;
}

async function sendReading(baseUrl, device, value) {
  const response = await fetch(`${baseUrl}/device/v1/up`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Basic ${Buffer.from(`${device.serial}:${device.key}`).toString('base64')}`,
    },
    body: JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: value }] }] }),
  });
  if (!response.ok) throw new Error(`reading refused: ${response.status} ${await response.text()}`);
}

async function setUp(baseUrl) {
  const login = await post(baseUrl, '/api/doLogin', {
    ...DEMO,
    type: 1,
    platform: 1,
    deviceId: 'screen-soak',
  });
  const session = { token: login.accessToken };
  const companies = await post(baseUrl, '/api/index/getUserCompanys', {}, session);
  session.companyId = companies[0].id;
  const devices = {};
  for (const [serial, name] of [
    [ALARM_SERIAL, 'Soak alarm fridge'],
    [READING_SERIAL, 'Soak reading fridge'],
  ]) {
    const added = await post(baseUrl, '/api/device/addDevice', { serial, name }, session);
    const detail = await post(baseUrl, '/api/device/deviceDetail', { id: added.id }, session);
    devices[serial] = { id: added.id, serial, key: added.deviceKey, sensorId: detail.sensors[0].id };
  }
  await post(
    baseUrl,
    '/api/deviceAlarmRule/saveAlarmSetting',
    {
      carrier: 'sensor',
      targetId: devices[ALARM_SERIAL].sensorId,
      level: 1,
      alarmType: 'overLimit',
      max: 8,
      repeat: 1,
      channels: [],
      notifierIds: [],
    },
    session,
  );
  return { session, devices };
}

/** A heap snapshot of the page (after a collection) written to `file`, for comparing two moments. */
async function snapshot(cdp, file) {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  writeFileSync(file, '');
  const onChunk = ({ chunk }) => appendFileSync(file, chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  log(`heap snapshot: ${file}`);
}

async function sample(page, cdp, started) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  const onScreen = await page.evaluate(() => ({
    alarms: document.querySelectorAll('[data-testid="screen-alarm"]').length,
    live: document.querySelector('[data-testid="screen-live"]')?.getAttribute('data-state') ?? null,
    openAlarms:
      document.querySelector('[data-testid="kpi-open-alarms"] .cc-dash-kpi-value')?.textContent ?? null,
  }));
  return {
    minute: Math.round((Date.now() - started) / 6000) / 10,
    heapUsedMB: Math.round((m.JSHeapUsedSize / 1048576) * 100) / 100,
    heapTotalMB: Math.round((m.JSHeapTotalSize / 1048576) * 100) / 100,
    nodes: m.Nodes,
    listeners: m.JSEventListeners,
    documents: m.Documents,
    ...onScreen,
  };
}

/** Least-squares slope of heap used (MB per hour) over the samples after the first. */
function slopePerHour(samples) {
  const points = samples.slice(1);
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.minute, 0) / n;
  const my = points.reduce((s, p) => s + p.heapUsedMB, 0) / n;
  const num = points.reduce((s, p) => s + (p.minute - mx) * (p.heapUsedMB - my), 0);
  const den = points.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60;
}

async function main() {
  writeFileSync(OUT, '');
  log(
    `screen soak: ${MINUTES} min, a sample every ${SAMPLE_EVERY_S} s, an alarm change every ${ALARM_EVERY_S} s -> ${OUT}`,
  );
  const server = await startServer();
  const { session, devices } = await setUp(server.baseUrl);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  cleanups.push(() => browser.close());
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1920, height: 1080 },
    reducedMotion: 'reduce',
  });
  await context.addInitScript(
    ({ token, companyId }) => {
      localStorage.setItem('accessToken', token);
      localStorage.setItem('companyId', companyId);
    },
    { token: session.token, companyId: session.companyId },
  );
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(SCREEN_PATH);
  await page.locator('[data-testid="screen-live"][data-state="bound"]').waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const started = Date.now();
  const samples = [];
  const record = async () => {
    const s = await sample(page, cdp, started);
    samples.push(s);
    appendFileSync(OUT, `${JSON.stringify(s)}\n`);
    log(JSON.stringify(s));
  };
  await record();
  if (SNAPSHOTS) await snapshot(cdp, path.join(SNAPSHOTS, 'first.heapsnapshot'));

  let over = false;
  let changes = 0;
  let nextSample = started + SAMPLE_EVERY_S * 1000;
  let nextChange = started + ALARM_EVERY_S * 1000;
  const end = started + MINUTES * 60_000;
  while (Date.now() < end && !stopRequested) {
    const now = Date.now();
    if (now >= nextChange) {
      over = !over;
      changes++;
      await sendReading(server.baseUrl, devices[ALARM_SERIAL], over ? 12.5 : 5).catch((e) =>
        errors.push(String(e)),
      );
      await sendReading(server.baseUrl, devices[READING_SERIAL], 4 + Math.random() * 2).catch((e) =>
        errors.push(String(e)),
      );
      nextChange += ALARM_EVERY_S * 1000;
    }
    if (now >= nextSample) {
      await record();
      nextSample += SAMPLE_EVERY_S * 1000;
    }
    await sleep(Math.max(100, Math.min(nextChange, nextSample) - Date.now()));
  }
  if (!stopRequested) await record();
  if (SNAPSHOTS) await snapshot(cdp, path.join(SNAPSHOTS, 'last.heapsnapshot'));
  const heaps = samples.map((s) => s.heapUsedMB);
  const summary = {
    summary: true,
    minutes: samples.at(-1).minute,
    samples: samples.length,
    alarmsRaised: Math.ceil(changes / 2),
    heapFirstMB: heaps[0],
    heapAfterFirstMinuteMB: heaps[1] ?? null,
    heapLastMB: heaps.at(-1),
    heapMaxMB: Math.max(...heaps),
    heapMinMB: Math.min(...heaps),
    slopeMBPerHour: Math.round(slopePerHour(samples) * 100) / 100,
    nodesFirst: samples[0].nodes,
    nodesLast: samples.at(-1).nodes,
    nodesMax: Math.max(...samples.map((s) => s.nodes)),
    listenersFirst: samples[0].listeners,
    listenersLast: samples.at(-1).listeners,
    pageErrors: errors.slice(0, 10),
  };
  appendFileSync(OUT, `${JSON.stringify(summary)}\n`);
  log(JSON.stringify(summary));
}

main()
  .catch((error) => {
    log(`soak failed: ${error?.stack ?? error}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
