// The README's screenshots, taken from the console as it is: starts the built server (the one
// `npm start` runs, apps/server/dist) on free ports with a fresh data directory and the demo,
// logs in as the demo administrator in headless Chromium and writes PNGs into docs/screenshots/.
// `npm run screenshots` builds what is stale first. CHROMIUM_PATH overrides /usr/bin/chromium.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'docs/screenshots');
const serverBundle = path.join(root, 'apps/server/dist/server.mjs');
const DEMO = { account: 'demo@example.com', password: 'Demo1234' };
/** Above this a PNG is reported: the README should stay light to load. */
const SIZE_BUDGET = 200 * 1024;

/**
 * What each shot shows: a path of the console, the window, the language, what to scroll to and
 * whether the whole page is taken (the home page, whose chart ends below 768 px).
 * The home page comes after a few others: the server's first reminder sweep (10 s after start)
 * puts the demo's calibration notice on the bell by then, as a user arriving later would see it.
 */
const DETAIL = { path: 'detail:DEMO0012', scrollTo: 'sensor-card-1' };
const SHOTS = [
  { name: 'monitors', path: '/deviceManagement/monitoringDevice' },
  { name: 'monitor-detail', ...DETAIL },
  { name: 'alarms', path: '/alarm/alarmInfo' },
  { name: 'map', path: '/monitoring/mapMode' },
  { name: 'equipment', path: '/deviceManagement/equipment' },
  { name: 'login', path: '/login', signedIn: false },
  { name: 'home', path: '/home', fullPage: true },
  { name: 'home-zh', path: '/home', language: 'zh-CN' },
  { name: 'monitor-detail-zh', ...DETAIL, language: 'zh-CN' },
  { name: 'home-mobile', path: '/home', width: 390, height: 844 },
];

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

async function startServer(dataDir) {
  const port = await freePort();
  const mqttPort = await freePort();
  let output = '';
  const child = spawn(process.execPath, [serverBundle], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      DEMO: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`server did not answer /healthz in 2 minutes:\n${output}`);
}

/** Waits until the page has its title and antd's spinners and skeletons are gone. */
async function settle(page) {
  await page.getByTestId('page-title').first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    () => document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active').length === 0,
    undefined,
    { timeout: 30_000 },
  );
  // Charts and the map draw after their data arrives.
  await page.waitForTimeout(1500);
}

async function logIn(page) {
  await page.goto('/login');
  await page.getByTestId('login-account').fill(DEMO.account);
  await page.getByTestId('login-password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home$/, { timeout: 30_000 });
}

async function open(page, target) {
  if (!target.startsWith('detail:')) {
    await page.goto(target);
    return;
  }
  const serial = target.slice('detail:'.length);
  await page.goto('/deviceManagement/monitoringDevice');
  await page.getByTestId(`device-row-${serial}`).getByTestId('device-link').click();
  await page.waitForURL(/monitoringDeviceDetail/);
}

async function take(browser, baseUrl, shot) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: shot.width ?? 1366, height: shot.height ?? 768 },
    timezoneId: 'UTC',
  });
  await context.addInitScript((language) => {
    localStorage.setItem('language', language);
    if (!localStorage.getItem('deviceId')) localStorage.setItem('deviceId', 'screenshots');
  }, shot.language ?? 'en');
  const page = await context.newPage();
  try {
    if (shot.signedIn === false) {
      await page.goto(shot.path);
      await page.getByTestId('login-submit').waitFor();
      await page.waitForTimeout(500);
    } else {
      await logIn(page);
      await open(page, shot.path);
      await settle(page);
      if (shot.scrollTo) {
        // Just above the element, so the card's title shows too.
        await page
          .getByTestId(shot.scrollTo)
          .evaluate((e) => window.scrollBy(0, e.getBoundingClientRect().top - 80));
        await page.waitForTimeout(1000);
      }
    }
    const file = path.join(outDir, `${shot.name}.png`);
    await page.screenshot({ path: file, type: 'png', fullPage: shot.fullPage === true });
    const size = statSync(file).size;
    const note = size > SIZE_BUDGET ? ` (over ${SIZE_BUDGET / 1024} KB)` : '';
    console.log(`${path.relative(root, file)}: ${Math.round(size / 1024)} KB${note}`);
  } finally {
    await context.close();
  }
}

async function main() {
  if (!existsSync(serverBundle))
    throw new Error('apps/server/dist/server.mjs is missing: run `npm run screenshots` (it builds first)');
  mkdirSync(outDir, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-screenshots-'));
  const { child, baseUrl } = await startServer(dataDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    for (const shot of SHOTS) await take(browser, baseUrl, shot);
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
