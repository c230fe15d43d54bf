import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MENU_TREE, type MenuDefinition, MenuType } from '../../packages/contract/src/menus';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';

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

    for (const url of ['/screen', ...menuPages(MENU_TREE)]) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
      expect(violations, url).toEqual([]);
    }
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
    await expect.poll(() => violations.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);
    expect(
      await page.evaluate(() => (window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan),
    ).toBe(undefined);
    await context.close();
  });
});
