import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { currentServer } from './server';

export const DEMO = {
  account: 'demo@example.com',
  password: 'Demo1234',
  company: 'Demo Cold Chain',
  name: 'Demo Admin',
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function useBrowser() {
  const state = {} as { browser: Browser; baseUrl: string };
  beforeAll(async () => {
    state.baseUrl = currentServer().baseUrl;
    state.browser = await chromium.launch({
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
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

export async function newPage(
  state: { browser: Browser; baseUrl: string },
  options: { width?: number; height?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await state.browser.newContext({
    baseURL: state.baseUrl,
    viewport: { width: options.width ?? 1366, height: options.height ?? 900 },
  });
  // One browser, as far as the server's abnormal-login check knows (apps/web keeps this id in
  // local storage across logins): a fresh context per test must not look like a new device.
  await context.addInitScript(() => {
    if (!localStorage.getItem('deviceId')) localStorage.setItem('deviceId', 'e2e-chromium');
  });
  // Waits of 45 s, not Playwright's 30: `npm test` may run this suite beside the server suite on
  // two cores, and a slow machine has been seen to take over 30 s to re-render a page after a
  // language switch while other suites computed.
  context.setDefaultTimeout(45_000);
  const page = await context.newPage();
  return { context, page };
}

/** Logs in through the login form as the demo administrator and waits for /home. */
export async function loginAsDemo(page: Page, path = '/') {
  await page.goto(path);
  await page.waitForURL(/\/login/);
  await page.getByTestId('login-account').fill(DEMO.account);
  await page.getByTestId('login-password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
}
