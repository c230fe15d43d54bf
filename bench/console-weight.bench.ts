/**
 * What a first visit costs: the JavaScript a cold `/login` downloads (bytes on the wire, after
 * compression) and the Largest Contentful Paint of `/login` and of `/home` after logging in,
 * measured in Debian's headless Chromium against the built console served by a server started
 * as `npm start` starts it. The mobile profile is Lighthouse's: 150 ms round trip, 1.6 Mbit/s
 * down, 750 kbit/s up, 4x CPU slowdown, set through the Chrome DevTools Protocol.
 *
 * Needs the built console (`npm run build`) and Chromium (`CHROMIUM_PATH`, default
 * /usr/bin/chromium).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort, startServerProcess } from '../apps/server/src/test/server-process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = path.resolve(import.meta.dirname, '../apps/web/dist/index.html');

export interface PageLoad {
  /** Compressed bytes of every script the page loaded, as the network carried them. */
  scriptBytes: number;
  scripts: number;
  /** Largest Contentful Paint, ms after navigation start: the median of the runs. */
  lcpMs: number;
  /** Every run's LCP, in the order measured. */
  lcpRunsMs: number[];
  /** How many times the page asked for the user's powers (`getUserPowers`). */
  powersCalls: number;
}

export interface ConsoleWeightFigures {
  loginCold: PageLoad;
  loginMobile: PageLoad;
  homeAfterLogin: PageLoad;
}

/** Runs per page (BENCH_CONSOLE_RUNS): the shared host's speed changes from one second to the next. */
const RUNS = Math.max(1, Number(process.env.BENCH_CONSOLE_RUNS ?? 3));

const MOBILE = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  cpuSlowdown: 4,
};

type OneLoad = Omit<PageLoad, 'lcpRunsMs'>;

async function measure(page: Page, url: string, mobile = false): Promise<OneLoad> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (mobile) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: MOBILE.latency,
      downloadThroughput: MOBILE.downloadThroughput,
      uploadThroughput: MOBILE.uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
  }
  // Bytes on the wire per request, headers included, as DevTools' "transferred" column shows.
  const scriptRequests = new Set<string>();
  const transferred = new Map<string, number>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scriptRequests.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => {
    transferred.set(event.requestId, event.encodedDataLength);
  });
  let powersCalls = 0;
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.endsWith('/api/index/getUserPowers')) powersCalls += 1;
  });
  await page.addInitScript(() => {
    const win = window as unknown as { __lcp: number };
    win.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) win.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // LCP is final once the page stops painting: wait for a first entry (a throttled CPU paints
  // late), then a quiet second for a larger one.
  await page.waitForFunction(() => (window as unknown as { __lcp: number }).__lcp > 0, null, {
    timeout: 30_000,
  });
  await page.waitForTimeout(1000);
  const lcpMs = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  let scriptBytes = 0;
  for (const id of scriptRequests) scriptBytes += transferred.get(id) ?? 0;
  await cdp.detach();
  return { scriptBytes, scripts: scriptRequests.size, lcpMs: Math.round(lcpMs), powersCalls };
}

/** Measures a page `RUNS` times, each from `open` (a new context); the LCP is the median. */
async function measureRuns(open: () => Promise<OneLoad>): Promise<PageLoad> {
  const loads: OneLoad[] = [];
  for (let run = 0; run < RUNS; run++) loads.push(await open());
  const lcpRunsMs = loads.map((load) => load.lcpMs);
  const sorted = [...lcpRunsMs].sort((a, b) => a - b);
  const last = loads.at(-1) as OneLoad;
  return { ...last, lcpMs: sorted[Math.floor(sorted.length / 2)] ?? 0, lcpRunsMs };
}

async function freshPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
  // One browser as far as the abnormal-login check knows (as e2e/support/browser.ts does): each
  // run's new context must not log in as a new device and be asked for a code.
  await context.addInitScript(() => {
    if (!localStorage.getItem('deviceId')) localStorage.setItem('deviceId', 'bench-chromium');
  });
  return context.newPage();
}

export async function benchConsoleWeight(): Promise<ConsoleWeightFigures> {
  if (!existsSync(DIST)) throw new Error('the console is not built: run "npm run build" first');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-web-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO: '1',
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
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
    // A first navigation warms the server (its first answers compile routes), not the browser:
    // every measured page opens in a new context with the cache disabled.
    const warm = await freshPage(browser, server.baseUrl);
    await warm.goto('/login', { waitUntil: 'networkidle' });
    await warm.context().close();

    const loginCold = await measureRuns(async () => {
      const page = await freshPage(browser, server.baseUrl);
      const load = await measure(page, '/login');
      await page.context().close();
      return load;
    });

    const loginMobile = await measureRuns(async () => {
      const page = await freshPage(browser, server.baseUrl);
      const load = await measure(page, '/login', true);
      await page.context().close();
      return load;
    });

    // Log in through the form, then measure /home as the browser opens it next.
    const homeAfterLogin = await measureRuns(async () => {
      const session = await freshPage(browser, server.baseUrl);
      await session.goto('/login');
      await session.getByTestId('login-account').fill('demo@example.com');
      await session.getByTestId('login-password').fill('Demo1234');
      await session.getByTestId('login-submit').click();
      await session.waitForURL(/\/home/);
      const load = await measure(session, '/home');
      await session.context().close();
      return load;
    });

    return { loginCold, loginMobile, homeAfterLogin };
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
