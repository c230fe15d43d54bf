/**
 * Platform docking (issue 16 item 5): the demo operator offers a platform (a receiver this spec
 * runs on 127.0.0.1, allowed by the e2e server's PUSH_ALLOW_HOSTS); the demo company applies to
 * dock a monitor to it on `platformList`; the operator enables the application; a reading of the
 * monitor then arrives signed by the generic adapter, and `dockMonitor` lists the delivery. Both
 * company pages at 390 and 1366 px and in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/platform-docking, pages/operator/docking-requests):
 * platform-add, platform-name, platform-endpoint, platform-key-id, platform-secret, platform-save;
 * dock-row-<id>, dock-apply-<id>, dock-state-<id>, dock-open-<id>, dock-monitors-select,
 * dock-monitors-save; docking-row-<id>, docking-enable-<id>, docking-enable-confirm; dock-detail,
 * delivery-row-<id>.
 *
 * SIM1018 is this file's monitor.
 */
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import { consoleCall } from '../support/console-call';
import {
  goClientSide,
  horizontalOverflow,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';
import { startReceiver } from '../support/receiver';
import { chooseOption } from '../support/select';

const LIST_PATH = '/interfaceDock/platformList';
const OPERATOR_PATH = '/operator/docking-requests';
const SERIAL = 'SIM1018';
const PLATFORM = `E2E platform ${String(Date.now()).slice(-6)}`;
const SECRET = 'e2e-platform-secret-0123456789';
const KEY_ID = 'e2e-supplier';

async function loginAsOperator(page: Page) {
  await page.goto('/');
  await page.waitForURL(/\/login/);
  await page.getByTestId('login-account').fill('operator@example.com');
  await page.getByTestId('login-password').fill('Demo1234');
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

describe('platform docking console', () => {
  const browser = useBrowser();
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterAll(() => receiver?.close());

  it('offers a platform, applies with a monitor, enables it, and delivers a reading signed', async () => {
    receiver = await startReceiver('/platform/in');
    const operator = await newPage(browser);
    await loginAsOperator(operator.page);
    await goClientSide(operator.page, OPERATOR_PATH);
    await operator.page.getByTestId('platform-add').click();
    await operator.page.getByTestId('platform-name').fill(PLATFORM);
    await operator.page.getByTestId('platform-endpoint').fill(receiver.url);
    await operator.page.getByTestId('platform-key-id').fill(KEY_ID);
    await operator.page.getByTestId('platform-secret').fill(SECRET);
    await operator.page.getByTestId('platform-save').click();
    await operator.page.getByText(PLATFORM, { exact: true }).first().waitFor();
    expect(await operator.page.locator('body').textContent()).not.toContain(SECRET);

    const company = await newPage(browser);
    const { page } = company;
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    const added = await consoleCall<{ id: string; deviceKey: string }>(page, '/api/device/addDevice', {
      serial: SERIAL,
      name: 'E2E docked monitor',
    });
    await goClientSide(page, LIST_PATH);
    const row = page.locator('[data-testid^="dock-row-"]').filter({ hasText: PLATFORM });
    await row.getByText('Not docked', { exact: true }).waitFor({ timeout: 20_000 });
    await row.locator('[data-testid^="dock-apply-"]').click();
    await chooseOption(
      page,
      page.getByTestId('dock-monitors-select'),
      `E2E docked monitor (${SERIAL})`,
      SERIAL,
    );
    // The open choice list covers the dialog's button, as it would for a user: close it first.
    await page.locator('.ant-modal-title').click();
    await page.getByTestId('dock-monitors-save').click();
    await page.getByTestId('dock-monitors-save').waitFor({ state: 'detached' });
    await row.getByText('Pending', { exact: true }).waitFor();
    await row.getByText('Waiting for the supplier to enable it').waitFor();

    // The operator's page was open before the application arrived: a refresh shows it.
    await operator.page.reload();
    const request = operator.page.locator('[data-testid^="docking-row-"]').filter({ hasText: PLATFORM });
    await request.waitFor();
    await request.locator('[data-testid^="docking-enable-"]').click();
    await operator.page.getByTestId('docking-enable-confirm').click();
    await operator.page.getByText('Docking enabled').first().waitFor();

    const now = Date.now();
    const up = await fetch(`${browser.baseUrl}/device/v1/up`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from(`${SERIAL}:${added.deviceKey}`).toString('base64')}`,
      },
      body: JSON.stringify({ records: [{ ts: now - 1000, channels: [{ ch: 1, v: 4.25 }] }] }),
    });
    expect(up.status).toBe(200);
    await expect
      .poll(() => receiver!.received.filter((d) => d.body.event === 'reading').length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    for (const delivery of receiver.received) {
      const ts = String(delivery.headers['x-timestamp']);
      expect(delivery.headers['x-platform-key']).toBe(KEY_ID);
      expect(delivery.headers['x-signature']).toBe(
        `sha256=${createHmac('sha256', SECRET).update(`${ts}.${delivery.raw}`).digest('hex')}`,
      );
    }
    const items = receiver.received.filter((d) => d.body.event === 'reading').flatMap((d) => d.body.items);
    expect(items).toEqual(
      expect.arrayContaining([expect.objectContaining({ deviceSerial: SERIAL, value: 4.25 })]),
    );

    await page.reload();
    await row.getByText('Enabled', { exact: true }).waitFor();
    await row.locator('[data-testid^="dock-open-"]').click();
    await page.waitForURL(/dockMonitor\?id=/);
    await page.getByTestId('dock-detail').getByText(PLATFORM).waitFor();
    await page.locator('[data-testid^="delivery-row-"]').filter({ hasText: 'Delivered' }).first().waitFor();
    const monitorUrl = page.url().replace(browser.baseUrl, '');

    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const path of [LIST_PATH, monitorUrl]) {
        await goClientSide(page, path);
        await page.locator('[data-testid^="dock-row-"], [data-testid^="delivery-row-"]').first().waitFor();
        expect(await horizontalOverflow(page), `${path} at ${width}`).toEqual([]);
        expect(await seriousA11yFaults(page), `${path} at ${width}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await goClientSide(page, LIST_PATH);
    await row.waitFor();
    await switchLanguage(page, 'zh-CN');
    await page.getByTestId('page-title').getByText('平台对接').waitFor();
    await row.getByText('已启用', { exact: true }).waitFor();
    expect(await untranslatedText(page, ['Enabled', 'Pending', 'Apply', 'Deliveries', 'Monitors'])).toEqual(
      [],
    );
    await operator.context.close();
    await company.context.close();
  });
});
