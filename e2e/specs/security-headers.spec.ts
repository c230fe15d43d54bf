import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MENU_TREE, type MenuDefinition, MenuType } from '../../packages/contract/src/menus';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';
import { pushRoute } from '../support/page-checks';

/*
 * The console under its Content-Security-Policy (apps/server/src/plugins/security-headers.ts):
 * every screen must run without one violation, so the policy can stay strict (no inline script).
 */

/** Every page of the sidebar's tree, the hidden ones included (they open without an id too). */
function menuPages(entries: MenuDefinition[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.type === MenuType.Directory ? [] : [entry.url]),
    ...menuPages(entry.children ?? []),
  ]);
}

/**
 * Collects the violations the browser reports, by the page's `securitypolicyviolation` event and
 * by its console ("Refused to ..."), on every page the context opens.
 */
async function watchViolations(context: BrowserContext, page: Page): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('reportCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  // Init scripts run before the page's own and are not subject to its policy.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation;
      report(
        `${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** Requests the page has in flight, to wait until a screen has loaded all it asks for. */
function trackRequests(page: Page) {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => {
    inFlight++;
    lastChange = Date.now();
  };
  const ended = () => {
    inFlight--;
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    /** Resolves once nothing has been in flight for `quietMs` (a lazy chunk's own calls included). */
    async quiet(quietMs: number): Promise<void> {
      while (inFlight > 0 || Date.now() - lastChange < quietMs) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

describe('the console under its security headers', () => {
  const browser = useBrowser();

  it('sends the policy and opens every screen without a CSP violation', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchViolations(context, page);

    const login = await page.goto('/login');
    const headers = login?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');

    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('home-devices').waitFor();

    // The monitor detail with its chart and tooltip: ECharts draws and styles at run time.
    await page.goto('/deviceManagement/monitoringDevice');
    await page.getByTestId('device-row-DEMO0001').click();
    await page.waitForURL(/monitoringDeviceDetail\?id=/);
    const chart = page.getByTestId('history-chart-canvas');
    await chart.waitFor();
    await chart.hover({ position: { x: 300, y: 150 } });

    // The full screen as a page load of its own; the menu's pages as the sidebar opens them,
    // client-side: each still loads its chunks and styles and calls its API under the policy
    // the first load received, without parsing the whole app again for every page.
    await page.goto('/screen');
    await page.waitForLoadState('networkidle');
    expect(violations, '/screen').toEqual([]);
    await page.goto('/home');
    await page.getByTestId('page-title').first().waitFor();
    const network = trackRequests(page);
    for (const url of menuPages(MENU_TREE)) {
      await pushRoute(page, url);
      // A report that comes later still fails the walk, under the next page's name or below.
      await network.quiet(100);
      expect(violations, url).toEqual([]);
    }
    await network.quiet(500);
    expect(violations, 'after the walk').toEqual([]);
    await context.close();
  }, 240_000);

  it('blocks an inline script and reports it, so the check above can see one', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchViolations(context, page);
    await page.goto('/login');
    await page.getByTestId('login-account').waitFor();
    // An injected inline script, as an XSS would add: the policy must refuse to run it.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineScriptRan = true';
      document.head.append(script);
    });
    await expect.poll(() => violations.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);
    expect(
      await page.evaluate(() => (window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan),
    ).toBe(undefined);
    await context.close();
  });
});
