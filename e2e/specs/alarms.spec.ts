/**
 * The alarm side of the console against the real server: a live over-limit alarm on screen,
 * then in the alarm records, then resolved.
 *
 * data-testid used here (apps/web/src/layout/LiveAlarms.tsx, apps/web/src/pages/alarms):
 * - live-socket: hidden, data-state="bound" once the live channel accepted the token
 * - alarm-notice (data-alarm-id) with alarm-notice-type / -device / -content / -link: a live alarm
 * - setting-device, setting-sensor-filter, setting-add, setting-min/-max/-repeat, setting-submit,
 *   setting-row-<id>: the alarm settings page and its form
 * - alarm-row-<id> (data-serial): a row of the alarm records
 * - alarm-resolve-open, alarm-resolve-cause, alarm-resolve-submit: the resolve form
 * - alarm-detail-resolver, alarm-detail-resolve-time: the resolution on the detail page
 *
 * SIM1007 is this file's spare serial: the e2e server is shared by every spec file.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, loginAsDemo, newPage, useBrowser } from '../support/browser';
import { chooseOption } from '../support/select';

const SERIAL = 'SIM1007';
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function openFromSidebar(page: Page, area: string, entry: string) {
  const sidebar = page.getByTestId('sidebar');
  if (!(await sidebar.getByText(entry, { exact: true }).isVisible()))
    await sidebar.getByText(area, { exact: true }).click();
  await sidebar.getByText(entry, { exact: true }).click();
}

describe('alarms', () => {
  const browser = useBrowser();

  it('shows a live over-limit alarm of SIM1007 within a second, lists it and resolves it', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    // Add the monitor through the console and read its one-time key.
    await openFromSidebar(page, 'Device management', 'Monitors');
    await page.waitForURL(/\/deviceManagement\/monitoringDevice$/);
    await page.getByTestId('add-device-open').click();
    await page.getByTestId('add-device-serial').fill(SERIAL);
    await page.getByTestId('add-device-name').fill('E2E alarm monitor');
    await page.getByTestId('add-device-submit').click();
    const key = ((await page.getByTestId('device-key').textContent()) ?? '').trim();
    expect(key.length).toBeGreaterThan(10);
    await page.getByTestId('device-key-close').click();

    // Over-limit setting on channel 1 through the alarm settings page: max 8 °C, repeat 1.
    await openFromSidebar(page, 'Alarm management', 'Alarm settings');
    await page.waitForURL(/\/alarm\/alarmSetting$/);
    await chooseOption(page, page.getByTestId('setting-device'), new RegExp(`^${SERIAL} · `), SERIAL);
    await chooseOption(page, page.getByTestId('setting-sensor-filter'), /^1 · /);
    await page.getByTestId('setting-add').click();
    await page.getByTestId('setting-max').fill('8');
    await page.getByTestId('setting-repeat').fill('1');
    await page.getByTestId('setting-submit').click();
    // The new monitor's default device-abnormal setting is listed too; ours is the over-limit one.
    await page
      .locator('[data-testid^="setting-row-"]', { hasText: '~ 8' })
      .first()
      .waitFor({ timeout: 30_000 });

    // The live channel must be bound before the reading goes in.
    await page.locator('[data-testid="live-socket"][data-state="bound"]').waitFor({ state: 'attached' });

    const response = await fetch(`${browser.baseUrl}/device/v1/up`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from(`${SERIAL}:${key}`).toString('base64')}`,
      },
      body: JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 12.5 }] }] }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const returned = Date.now();
    const notice = page.getByTestId('alarm-notice').filter({ hasText: SERIAL }).first();
    await notice.waitFor({ timeout: 1_000 });
    expect(Date.now() - returned).toBeLessThanOrEqual(1_000);
    expect(await notice.textContent()).toContain('E2E alarm monitor');
    const alarmId = await notice.getAttribute('data-alarm-id');
    expect(alarmId).toMatch(/^\d+$/);

    // It is in the alarm records, pending.
    await openFromSidebar(page, 'Alarm management', 'Alarm records');
    await page.waitForURL(/\/alarm\/alarmInfo$/);
    const row = page.getByTestId(`alarm-row-${alarmId}`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('Over-limit alarm');
    expect(await row.textContent()).toContain(SERIAL);
    expect(await row.getByTestId('alarm-resolve-state').textContent()).toBe('Pending');

    // Resolve it from the detail page.
    await row.click();
    await page.waitForURL(new RegExp(`/alarm/alarmInfo/alarmDetail\\?id=${alarmId}$`));
    await page.getByTestId('alarm-resolve-open').click();
    await page.getByTestId('alarm-resolve-cause').fill('Door left open during loading');
    await page.getByTestId('alarm-resolve-submit').click();
    await expect
      .poll(async () => page.getByTestId('alarm-detail-resolver').textContent(), { timeout: 30_000 })
      .toBe(DEMO.name);
    expect(((await page.getByTestId('alarm-detail-resolve-time').textContent()) ?? '').trim()).toMatch(
      DATE_TIME,
    );
    await context.close();
  });
});
