/**
 * The data screen against the real server: the header's data-screen shortcut opens /screen, a
 * reading over a limit raises an alarm, and the alarm is on the screen within a second. Then the
 * same screen at the sizes it is made for.
 *
 * data-testid used here (apps/web/src/pages/screen, apps/web/src/layout/HeaderTools.tsx):
 * - data-screen: the header's shortcut
 * - screen-overview / screen-wall: the two screens; screen-live (data-state="bound" once the live
 *   channel accepted the token); screen-alarm (data-serial, data-alarm-id): an open alarm;
 *   kpi-devices, kpi-open-alarms: the counts; screen-sensor-<id>: a tile of the sensor wall
 *
 * SIM1013 is this file's spare serial: the e2e server is shared by every spec file.
 */
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';
import { consoleCall } from '../support/console-call';

const SERIAL = 'SIM1013';

describe('data screen', () => {
  const browser = useBrowser();

  it('opens from the header and shows a new alarm within a second', async () => {
    const { context, page } = await newPage(browser, { width: 1920, height: 1080 });
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    // A monitor of its own with an over-limit setting (max 8 °C) on channel 1.
    const added = await consoleCall<{ id: string; deviceKey: string }>(page, '/api/device/addDevice', {
      serial: SERIAL,
      name: 'E2E screen monitor',
    });
    const detail = await consoleCall<{ sensors: { id: string }[] }>(page, '/api/device/deviceDetail', {
      id: added.id,
    });
    await consoleCall(page, '/api/deviceAlarmRule/saveAlarmSetting', {
      carrier: 'sensor',
      targetId: detail.sensors[0]!.id,
      level: 2,
      alarmType: 'overLimit',
      max: 8,
      repeat: 1,
      channels: [],
      notifierIds: [],
    });

    // The shortcut asks for a ticket and opens /screen; the ticket does not stay in the address.
    await page.getByTestId('data-screen').click();
    await page.waitForURL(/\/screen$/);
    await page.getByTestId('screen-overview').waitFor();
    await page.getByTestId('kpi-devices').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="screen-live"][data-state="bound"]').waitFor({ timeout: 30_000 });
    const before = Number(
      await page.getByTestId('kpi-open-alarms').locator('.cc-dash-kpi-value').textContent(),
    );

    const response = await fetch(`${browser.baseUrl}/device/v1/up`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from(`${SERIAL}:${added.deviceKey}`).toString('base64')}`,
      },
      body: JSON.stringify({ records: [{ ts: Date.now(), channels: [{ ch: 1, v: 12.5 }] }] }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const returned = Date.now();
    const row = page.locator(`[data-testid="screen-alarm"][data-serial="${SERIAL}"]`).first();
    await row.waitFor({ timeout: 1_000 });
    expect(Date.now() - returned).toBeLessThanOrEqual(1_000);
    expect(await row.textContent()).toContain('E2E screen monitor');
    expect(await row.textContent()).toContain('Over-limit alarm');
    await expect
      .poll(async () =>
        Number(await page.getByTestId('kpi-open-alarms').locator('.cc-dash-kpi-value').textContent()),
      )
      .toBe(before + 1);

    // The refresh the push asked for brings the monitor's state and its alarm count to the floor view.
    await expect
      .poll(async () => page.getByTestId(`screen-device-${added.id}`).getAttribute('data-alarm'), {
        timeout: 30_000,
      })
      .toBe('true');

    // The sensor wall shows the monitor's latest value, marked as alarming.
    await page.goto(`/screen2?sensors=${detail.sensors[0]!.id}`);
    const tile = page.getByTestId(`screen-sensor-${detail.sensors[0]!.id}`);
    await tile.waitFor({ timeout: 30_000 });
    expect(await tile.getAttribute('data-alarm')).toBe('true');
    expect(await tile.textContent()).toContain('12.5');
    await context.close();
  });

  it('runs a wall screen from an address-code link, without anyone typing a password', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    const { code } = await consoleCall<{ code: string }>(page, '/api/loginCode/createAddressCode', {});
    await context.close();

    const wall = await newPage(browser, { width: 1920, height: 1080 });
    await wall.page.goto(`/login?addressCode=${code}&redirect=${encodeURIComponent('/screen2')}`);
    await wall.page.waitForURL(/\/screen2$/, { timeout: 30_000 });
    await wall.page.getByTestId('screen-wall').waitFor();
    await wall.page.locator('[data-testid="screen-live"][data-state="bound"]').waitFor({ timeout: 30_000 });
    expect(await wall.page.locator('[data-testid^="screen-sensor-"]').count()).toBeGreaterThan(0);
    await wall.context.close();
  });

  it('fills 1920x1080 and 3840x2160 with type that grows with the screen, and still fits 1366x768', async () => {
    const sizes = [
      { width: 1366, height: 768 },
      { width: 1920, height: 1080 },
      { width: 3840, height: 2160 },
    ];
    const measured: {
      width: number;
      fontPx: number;
      kpiPx: number;
      overflowX: boolean;
      overflowY: boolean;
    }[] = [];
    for (const size of sizes) {
      const { context, page } = await newPage(browser, size);
      await loginAsDemo(page, '/screen');
      await page.waitForURL(/\/screen$/);
      await page.getByTestId('kpi-devices').waitFor({ timeout: 30_000 });
      measured.push(
        await page.evaluate(() => {
          const root = document.querySelector('.cc-dash') as HTMLElement;
          const kpi = document.querySelector('[data-testid="kpi-devices"] .cc-dash-kpi-value') as HTMLElement;
          return {
            width: window.innerWidth,
            fontPx: Number.parseFloat(getComputedStyle(root).fontSize),
            kpiPx: Number.parseFloat(getComputedStyle(kpi).fontSize),
            overflowX: document.documentElement.scrollWidth > window.innerWidth,
            overflowY: document.documentElement.scrollHeight > window.innerHeight,
          };
        }),
      );
      await context.close();
    }
    const [small, hd, uhd] = measured as [(typeof measured)[0], (typeof measured)[0], (typeof measured)[0]];
    for (const m of measured)
      expect(m, `at ${m.width}`).toMatchObject({ overflowX: false, overflowY: false });
    expect(hd.fontPx).toBeGreaterThanOrEqual(18);
    expect(uhd.fontPx).toBeCloseTo(hd.fontPx * 2, 0);
    expect(small.fontPx).toBeGreaterThanOrEqual(13);
    // The counts read from across a room: over 40 px on a 1080p screen.
    expect(hd.kpiPx).toBeGreaterThanOrEqual(40);
  });
});
