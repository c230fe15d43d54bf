import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { motionSettled } from './page-checks';
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
  clicksWaitForMotion(page);
  reportBrowserTroubleOnFailure(context, page);
  return { context, page };
}

/**
 * Makes every locator click of the suite wait first until no finite CSS animation runs
 * (`motionSettled`). A click aimed at an antd menu or dialog that is still zooming or sliding in
 * can be lost on a loaded machine: Playwright's stability check passed, yet the click did not
 * take. That was the cause of every rare 45-second wait the clean-clone runs showed, in a
 * different spec each time, so it is handled here once rather than spec by spec. The wait runs
 * before Playwright looks for the target, so a click into a popup that opens on the previous
 * action waits for the popup to be there first (`waitFor`), then its motion. Shortening all
 * motion with a stylesheet was tried instead and broke four specs (antd's motion end events
 * raced their own class changes); antd's `motion: false` loses dialogs' autoFocus.
 */
function clicksWaitForMotion(page: Page) {
  const prototype = Object.getPrototypeOf(page.locator('body')) as {
    click: Locator['click'];
    waitsForMotion?: true;
  };
  if (prototype.waitsForMotion) return;
  const click = prototype.click;
  prototype.click = async function (this: Locator, options) {
    // A click that navigates may leave no page to evaluate in: the click itself then decides.
    await motionSettled(this.page()).catch(() => undefined);
    return click.call(this, options);
  };
  prototype.waitsForMotion = true;
}

/**
 * What the browser saw go wrong (script errors, failed or refused requests), printed only when
 * the test fails: a wait that runs out says what did not appear, not why. A screen that never
 * came after a language switch or a client-side navigation is usually a chunk or a call that
 * failed, and this names it.
 */
function reportBrowserTroubleOnFailure(context: BrowserContext, page: Page) {
  const started = Date.now();
  const lines: string[] = [];
  const note = (line: string) => {
    lines.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}`);
    if (lines.length > 200) lines.shift();
  };
  context.on('page', (opened) => note(`page opened ${opened.url()}`));
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text()}`);
  });
  page.on('requestfailed', (request) =>
    note(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400)
      note(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  // Requests still waiting for an answer when the test fails name a call that hung.
  const inFlight = new Map<import('playwright-core').Request, number>();
  page.on('request', (request) => inFlight.set(request, Date.now()));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`at ${frame.url()}`);
  });
  try {
    onTestFailed(async () => {
      const where = page.isClosed() ? 'a closed page' : page.url();
      const text = page.isClosed()
        ? ''
        : await page
            .evaluate(() => {
              // The screen and any open dialog or popup, without the menu.
              const parts = [
                document.querySelector('main') ?? document.body,
                ...Array.from(document.querySelectorAll('[role=dialog]')),
              ];
              // biome-ignore lint/performance/useDomNodeTextContent: what a user saw, hidden parts left out
              const visible = (part: Element) => (part as HTMLElement).innerText;
              return parts.map((part) => visible(part).replace(/\s+/g, ' ').slice(0, 1500)).join(' | ');
            })
            .catch((error: Error) => `(unreadable: ${error.message})`);
      const pending = [...inFlight].map(
        ([request, since]) =>
          `${request.method()} ${request.url()} (${((Date.now() - since) / 1000).toFixed(1)} s)`,
      );
      process.stderr.write(
        `\n-- what the browser saw (${lines.length} events), last at ${where}\n${lines.join('\n')}\n-- requests without an answer: ${pending.join(', ') || 'none'}\n-- the page's text: ${text}\n--\n`,
      );
    });
  } catch {
    // Outside a test (a hook): nothing to attach the report to.
  }
}

/** Logs in through the login form as the demo administrator and waits for /home. */
export async function loginAsDemo(page: Page, path = '/') {
  await page.goto(path);
  await page.waitForURL(/\/login/);
  await page.getByTestId('login-account').fill(DEMO.account);
  await page.getByTestId('login-password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
}

/**
 * Switches the interface language through the user menu, as a person does, and waits until it
 * took: the choice is remembered in local storage once that language's strings are loaded
 * (apps/web/src/i18n). The click waits for the menu to stop zooming in (`clicksWaitForMotion`):
 * one that landed while it moved left the language English on a loaded machine (CI failures of
 * stops 31 and 35, equipment and open API). If it still did not take, it chooses again, as a
 * person would, up to three times.
 */
export async function switchLanguage(page: Page, language: 'zh-CN' | 'en'): Promise<void> {
  const item = page.getByTestId(language === 'zh-CN' ? 'menu-language-zh' : 'menu-language-en');
  for (let attempt = 1; ; attempt++) {
    if (!(await item.isVisible())) await page.getByTestId('user-menu').click();
    await item.waitFor();
    await item.click();
    try {
      await page.waitForFunction((wanted) => localStorage.getItem('language') === wanted, language, {
        timeout: 10_000,
      });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
