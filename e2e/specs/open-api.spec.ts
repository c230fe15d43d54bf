/**
 * Open API console (issue 16): a key created on `OpenApi` (its secret shown once), a demo monitor
 * opened to it on `OpenDevice`, then the open API read from Node with that key, signed as the
 * page's "How to sign a request" says; the call shows in the key's usage log. Both pages at 390
 * and 1366 px, and in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/open-api):
 * - key-create-open / key-name / key-create-save; key-created-app-key, key-created-app-secret,
 *   key-created-warning, key-created-done; key-row-<id>, key-devices-<id>, key-usage-<id>
 * - open-api-base-url, signing-guide
 * - open-device-search, open-device-row-<serial>, open-device-save, open-device-current
 * - usage-drawer
 *
 * DEMO0008 is this file's monitor.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import { goClientSide, horizontalOverflow, untranslatedText } from '../support/page-checks';

const KEYS_PATH = '/interfaceDock/OpenApi';
const DEVICES_PATH = '/interfaceDock/OpenDevice';
const MONITOR = 'DEMO0008';
/** Unique per run: the e2e server may be shared with other spec files. */
const KEY_NAME = `E2E integration ${String(Date.now()).slice(-6)}`;

interface OpenDevice {
  id: string;
  serial: string;
  name: string;
  sensors: { id: string; channel: number }[];
}

/** A signed GET of the open API, as an integrator writes it (API.md "Open API"). */
async function signedGet(baseUrl: string, pathWithQuery: string, appKey: string, appSecret: string) {
  const timestamp = String(Date.now());
  const nonce = randomUUID();
  const text = ['GET', pathWithQuery, timestamp, nonce, ''].join('\n');
  const signature = createHmac('sha256', appSecret).update(text).digest('hex');
  const origin = baseUrl.replace(/\/open\/v1$/, '');
  const response = await fetch(`${origin}${pathWithQuery}`, {
    headers: { 'X-App-Key': appKey, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': signature },
  });
  return { status: response.status, body: (await response.json()) as { msgCode: number; data: unknown } };
}

function keyRow(page: Page) {
  return page.locator('[data-testid^="key-row-"]').filter({ hasText: KEY_NAME });
}

async function createKey(page: Page) {
  await goClientSide(page, KEYS_PATH);
  await page.getByTestId('key-create-open').click();
  await page.getByTestId('key-name').fill(KEY_NAME);
  await page.getByTestId('key-create-save').click();
  // The modal's root is a zero-size wrapper: wait for what it shows.
  const secret = page.getByTestId('key-created-app-secret');
  await secret.waitFor();
  const appKey = ((await page.getByTestId('key-created-app-key').textContent()) ?? '').trim();
  const appSecret = ((await page.getByTestId('key-created-app-secret').textContent()) ?? '').trim();
  expect(appKey).not.toBe('');
  expect(appSecret.length).toBeGreaterThanOrEqual(16);
  expect(await page.getByTestId('key-created-warning').textContent()).toContain('will not be shown again');
  await page.getByTestId('key-created-done').click();
  await secret.waitFor({ state: 'detached' });
  // Shown once: the list names the key but never its secret.
  await keyRow(page).waitFor();
  expect(await keyRow(page).textContent()).toContain(appKey);
  expect(await page.locator('body').textContent()).not.toContain(appSecret);
  const baseUrl = ((await page.getByTestId('open-api-base-url').textContent()) ?? '').trim();
  return { appKey, appSecret, baseUrl };
}

async function openMonitor(page: Page) {
  // The key's own link opens OpenDevice with the key chosen.
  await keyRow(page).locator('[data-testid^="key-devices-"]').click();
  await page.waitForURL(/\/interfaceDock\/OpenDevice\?keyId=/);
  await page.getByTestId('open-device-current').waitFor();
  expect(await page.getByTestId('open-device-current').textContent()).toContain('(0)');
  const search = page.getByTestId('open-device-search').locator('input');
  await search.fill(MONITOR);
  await search.press('Enter');
  const row = page.getByTestId(`open-device-row-${MONITOR}`);
  await row.waitFor();
  await row.locator('input[type=checkbox]').check();
  await page.getByTestId('open-device-save').click();
  await page.getByText('The devices of the key were saved').first().waitFor();
  await expect.poll(() => page.getByTestId('open-device-current').textContent()).toContain(MONITOR);
  expect(await page.getByTestId('open-device-current').textContent()).toContain('(1)');
}

describe('open API console', () => {
  const browser = useBrowser();

  it('creates a key, opens a demo monitor to it, and reads the monitor through the signed open API', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    const { appKey, appSecret, baseUrl } = await createKey(page);
    expect(baseUrl).toBe(`${browser.baseUrl}/open/v1`);
    // Before any device is opened the key reads nothing.
    const before = await signedGet(baseUrl, '/open/v1/devices?pageNum=1&pageSize=200', appKey, appSecret);
    expect(before.status).toBe(200);
    expect((before.body.data as { list: OpenDevice[] }).list).toEqual([]);

    await openMonitor(page);
    const after = await signedGet(baseUrl, '/open/v1/devices?pageNum=1&pageSize=200', appKey, appSecret);
    expect(after.status).toBe(200);
    expect(after.body.msgCode).toBe(200);
    const listed = (after.body.data as { list: OpenDevice[] }).list;
    expect(listed.map((d) => d.serial)).toEqual([MONITOR]);
    expect(listed[0]?.sensors.length).toBeGreaterThan(0);
    // A wrong secret is refused.
    const forged = await signedGet(baseUrl, '/open/v1/devices', appKey, `${appSecret}x`);
    expect(forged.status).toBe(401);

    // The calls are in the key's usage log.
    await goClientSide(page, KEYS_PATH);
    await keyRow(page).locator('[data-testid^="key-usage-"]').click();
    const drawer = page.getByTestId('usage-drawer');
    await drawer.getByText('/open/v1/devices?pageNum=1&pageSize=200').first().waitFor();
    expect(await drawer.textContent()).toContain('401');
    await page.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'detached' });

    // Both pages fit the window, wide and phone-sized, in English and in Chinese.
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const path of [KEYS_PATH, DEVICES_PATH]) {
        await goClientSide(page, path);
        await page.getByTestId(path === KEYS_PATH ? 'signing-guide' : 'open-device-current').waitFor();
        expect(await horizontalOverflow(page), `${path} at ${width}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await switchLanguage(page, 'zh-CN');
    await goClientSide(page, KEYS_PATH);
    await page.getByText('如何签名请求').waitFor();
    await keyRow(page).getByText('有效', { exact: true }).waitFor();
    expect(
      await untranslatedText(page, ['Active', 'Revoked', 'Create key', 'Usage', 'Revoke', 'Never']),
    ).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, DEVICES_PATH);
    await page
      .getByTestId('open-device-current')
      .getByText(/已开放设备/)
      .waitFor();
    expect(await untranslatedText(page, ['Save', 'Undo changes', 'Serial'])).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);
    await context.close();
  });
});
