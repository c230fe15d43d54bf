/**
 * The API document (issue 16): the `OpenApi` page's "API document" tab renders the server's
 * OpenAPI 3.1 document (/open/v1/openapi.json) with Swagger UI, loaded on that tab only, under
 * the console's strict Content-Security-Policy: a script evaluated from text, an inline script or
 * a font or image from another site would be a CSP violation, which Chromium reports as a console
 * error. Nothing is asked of another site (no validator badge), and the page fits 390 px, in
 * English and in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/open-api): open-api-tab-document, api-document,
 * api-document-view, signing-guide.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import {
  consoleErrors,
  goClientSide,
  horizontalOverflow,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';

const KEYS_PATH = '/interfaceDock/OpenApi';
const DOCUMENT_PATH = `${KEYS_PATH}?tab=document`;

/** GET /open/v1/devices as Swagger UI draws it: a GET bar whose path is that of the call. */
function devicesOperation(page: Page) {
  return page
    .getByTestId('api-document-view')
    .locator('.opblock-get')
    .filter({ has: page.locator('.opblock-summary-path[data-path="/open/v1/devices"]') });
}

async function documentShown(page: Page) {
  await devicesOperation(page).waitFor({ timeout: 30_000 });
}

describe('API document', () => {
  const browser = useBrowser();

  it('renders the open API operations under the strict CSP, with no call elsewhere and no overflow', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    const elsewhere: string[] = [];
    const swaggerFiles: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(browser.baseUrl) && !url.startsWith('data:')) elsewhere.push(url);
      if (/swagger-ui/.test(url)) swaggerFiles.push(url);
    });
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    // The policy the page runs under is the strict one (apps/server/src/plugins/security-headers.ts).
    const csp = (await page.request.get('/')).headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    // The keys tab does not load Swagger UI.
    await goClientSide(page, KEYS_PATH);
    await page.getByTestId('signing-guide').waitFor();
    expect(swaggerFiles).toEqual([]);

    await page.getByTestId('open-api-tab-document').click();
    await page.waitForURL((u) => u.search === '?tab=document');
    await documentShown(page);
    expect(swaggerFiles.some((u) => u.endsWith('.js'))).toBe(true);
    expect(swaggerFiles.some((u) => u.endsWith('.css'))).toBe(true);
    // The open-API group is open; a call shows its parameters, and cannot be sent from here.
    const operation = devicesOperation(page);
    await operation.locator('.opblock-summary').first().click();
    await operation.getByText('pageSize', { exact: true }).first().waitFor();
    expect(await page.getByTestId('api-document-view').getByText('Try it out').count()).toBe(0);
    expect(await page.locator('.swagger-ui .authorize').count()).toBe(0);
    // Swagger UI's own stylesheet applies (a blocked one would leave the bar unstyled).
    const background = await operation
      .locator('.opblock-summary-method')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    // A console call with a request body: its example is drawn and the page keeps answering
    // (Swagger UI's syntax highlighting froze the tab here; it is off).
    await page.locator('.opblock-tag[data-tag="Console: alarm"]').click();
    const pageAlarms = page
      .getByTestId('api-document-view')
      .locator('.opblock-post')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/api/alarm/pageAlarms"]') });
    await pageAlarms.locator('.opblock-summary').first().click();
    await pageAlarms.locator('.body-param__example, .microlight, pre').first().waitFor();
    const answered = await Promise.race([
      page.evaluate(() => document.querySelector('.opblock-post .opblock-body')?.textContent ?? ''),
      new Promise<string>((resolve) => setTimeout(() => resolve('the page stopped answering'), 5_000)),
    ]);
    expect(answered).toContain('pageSize');
    // Readable as every console page must be (every-page.spec.ts), with a call opened.
    expect(await seriousA11yFaults(page)).toEqual([]);

    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await goClientSide(page, DOCUMENT_PATH);
      await documentShown(page);
      expect(await horizontalOverflow(page), `document at ${width}`).toEqual([]);
    }

    await page.setViewportSize({ width: 1366, height: 900 });
    await switchLanguage(page, 'zh-CN');
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, DOCUMENT_PATH);
    await page
      .getByTestId('api-document')
      .getByText(/开放接口请求需用企业密钥签名/)
      .waitFor();
    await documentShown(page);
    expect(await page.getByTestId('open-api-tab-document').textContent()).toBe('接口文档');
    // Swagger UI's own labels stay English (said on the page); the console's text around it may not.
    expect(await untranslatedText(page, ['API document', 'Keys', 'Retry'])).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
