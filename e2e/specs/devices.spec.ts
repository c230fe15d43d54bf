/**
 * Monitor list, adding a monitor, live readings from the simulator, and the history chart.
 *
 * data-testid used here (apps/web/src/pages/devices):
 * - device-row-<serial>: a row of the monitor list; device-search: the search box
 * - add-device-open / add-device-serial / add-device-name / add-device-submit: the add modal
 * - device-key: the one-time device key; device-key-close: leaves the key view
 * - device-name, device-serial: detail header
 * - sensor-card-<channel> containing sensor-value: one card per sensor
 * - history-preset-<1h|24h|7d|30d|1y>: range presets of the chart
 * - history-points: data-count (points drawn), data-first / data-last (their first and last
 *   instant in ms); history-stat-<min|max|avg|mkt>: statistics of the visible range
 *
 * SIM1005 is this file's spare serial: the e2e server is shared by every spec file.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';
import { type RunningSimulator, startSimulator } from '../support/simulator';

const SERIAL = 'SIM1005';

async function openMonitors(page: Page) {
  await page.getByTestId('sidebar').getByText('Device management', { exact: true }).click();
  await page.getByTestId('sidebar').getByText('Monitors', { exact: true }).click();
  await page.waitForURL(/\/deviceManagement\/monitoringDevice$/);
}

/** Reloads until `check` holds: the detail page refetches only every 30 s by itself. */
async function eventually(page: Page, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await page.waitForTimeout(2_000);
    if (await check().catch(() => false)) return true;
    await page.reload();
  }
  return check().catch(() => false);
}

async function pointCount(page: Page): Promise<number> {
  await page.getByTestId('history-points').waitFor({ timeout: 30_000 });
  return Number(await page.getByTestId('history-points').getAttribute('data-count'));
}

describe('monitors', () => {
  const browser = useBrowser();
  let simulator: RunningSimulator | undefined;

  afterAll(async () => {
    await simulator?.stop();
  });

  it('lists the demo monitors and shows a week of DEMO0001 history', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('home-devices').waitFor();
    await openMonitors(page);
    await page.getByTestId('device-row-DEMO0001').waitFor();
    for (const serial of ['DEMO0001', 'DEMO0006', 'DEMO0012']) {
      expect(await page.getByTestId(`device-row-${serial}`).count(), serial).toBe(1);
    }

    await page.getByTestId('device-row-DEMO0001').click();
    await page.waitForURL(/monitoringDeviceDetail\?id=/);
    expect(await page.getByTestId('device-serial').textContent()).toBe('DEMO0001');
    await page.getByTestId('history-preset-7d').click();
    const week = 7 * 86_400_000;
    const spansWeek = async () => {
      const points = page.getByTestId('history-points');
      const first = Number(await points.getAttribute('data-first'));
      const last = Number(await points.getAttribute('data-last'));
      return (await pointCount(page)) > 100 && last - first > week - 86_400_000;
    };
    await expect.poll(spansWeek, { timeout: 30_000 }).toBe(true);
    expect(await page.getByTestId('history-stat-mkt').textContent()).toMatch(/\d+\.\d\d/);
    await context.close();
  });

  it('adds SIM1005, receives its live readings from the simulator and draws them', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await openMonitors(page);

    await page.getByTestId('add-device-open').click();
    await page.getByTestId('add-device-serial').fill(SERIAL);
    await page.getByTestId('add-device-name').fill('E2E live monitor');
    await page.getByTestId('add-device-submit').click();
    const key = ((await page.getByTestId('device-key').textContent()) ?? '').trim();
    expect(key.length).toBeGreaterThan(10);
    await page.getByTestId('device-key-close').click();

    simulator = startSimulator(browser.baseUrl, SERIAL, key);

    await page.getByTestId('device-search').fill(SERIAL);
    await page.getByTestId(`device-row-${SERIAL}`).click();
    await page.waitForURL(/monitoringDeviceDetail\?id=/);
    expect(await page.getByTestId('device-serial').textContent()).toBe(SERIAL);

    const hasValue = async () =>
      /\d/.test((await page.getByTestId('sensor-card-1').getByTestId('sensor-value').textContent()) ?? '');
    expect(await eventually(page, hasValue, 20_000), simulator.log()).toBe(true);

    const hasPoints = async () => {
      await page.getByTestId('history-preset-1h').click();
      return (await pointCount(page)) > 0;
    };
    expect(await eventually(page, hasPoints, 20_000), simulator.log()).toBe(true);
    expect(await page.getByTestId('history-stat-max').textContent()).toMatch(/\d/);
    await context.close();
  });
});
