/**
 * Push docking (issue 16 item 4): a push address registered on `customizedPushDevice` for a
 * receiver this spec runs on 127.0.0.1 (the e2e server allows it through PUSH_ALLOW_HOSTS), its
 * secret shown once, enabled by a test delivery, bound to a monitor; a reading and an alarm of
 * the monitor then arrive signed with that secret, and `customizedPushUrl` lists the deliveries.
 * Both pages at 390 and 1366 px, and in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/push-docking):
 * - push-add / push-name / push-url / push-save; push-secret-dialog, push-secret, push-secret-done
 * - push-row-<id>, push-state-<id>, push-test-<id>, push-devices-<id>, push-deliveries-<id>
 * - push-devices-select / push-devices-save; delivery-row-<id>, push-address
 *
 * SIM1011 is this file's monitor.
 */
import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import { consoleCall } from '../support/console-call';
import { goClientSide, horizontalOverflow, untranslatedText } from '../support/page-checks';
import { startReceiver } from '../support/receiver';
import { chooseOption } from '../support/select';

const LIST_PATH = '/customizedPushDock/customizedPushDevice';
const SERIAL = 'SIM1011';
const NAME = `E2E receiver ${String(Date.now()).slice(-6)}`;

describe('push docking console', () => {
  const browser = useBrowser();
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterAll(() => receiver?.close());

  it('registers a receiver, enables it with a test, and receives a reading and an alarm signed', async () => {
    receiver = await startReceiver('/coldchain');
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    const added = await consoleCall<{ id: string; deviceKey: string }>(page, '/api/device/addDevice', {
      serial: SERIAL,
      name: 'E2E push monitor',
    });
    const detail = await consoleCall<{ sensors: { id: string }[] }>(page, '/api/device/deviceDetail', {
      id: added.id,
    });
    await consoleCall(page, '/api/deviceAlarmRule/saveAlarmSetting', {
      carrier: 'sensor',
      targetId: detail.sensors[0]!.id,
      level: 1,
      alarmType: 'overLimit',
      max: 8,
      repeat: 1,
      channels: [],
      notifierIds: [],
    });

    await goClientSide(page, LIST_PATH);
    await page.getByTestId('push-add').click();
    await page.getByTestId('push-name').fill(NAME);
    await page.getByTestId('push-url').fill(receiver.url);
    await page.getByTestId('push-save').click();
    const secretText = page.getByTestId('push-secret');
    await secretText.waitFor();
    const secret = ((await secretText.textContent()) ?? '').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await page.getByTestId('push-secret-done').click();
    await secretText.waitFor({ state: 'detached' });

    const row = page.locator('[data-testid^="push-row-"]').filter({ hasText: NAME });
    await row.waitFor();
    expect(await page.locator('body').textContent()).not.toContain(secret);
    await row.getByText('Pending', { exact: true }).waitFor();
    await row.locator('[data-testid^="push-test-"]').click();
    await page.getByText('The receiver answered 200; the address is enabled').first().waitFor();
    await row.getByText('Enabled', { exact: true }).waitFor();
    const test = receiver.received.find((d) => d.body.event === 'test');
    expect(test?.headers['x-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(test!.raw).digest('hex')}`,
    );

    await row.locator('[data-testid^="push-devices-"]').click();
    await chooseOption(page, page.getByTestId('push-devices-select'), `E2E push monitor (${SERIAL})`, SERIAL);
    await page.getByTestId('push-devices-save').click();
    await page.getByTestId('push-devices-save').waitFor({ state: 'detached' });

    // A reading in range, then one above the limit, which raises an alarm.
    const up = (ts: number, v: number) =>
      fetch(`${browser.baseUrl}/device/v1/up`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Basic ${Buffer.from(`${SERIAL}:${added.deviceKey}`).toString('base64')}`,
        },
        body: JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v }] }] }),
      });
    const now = Date.now();
    expect((await up(now - 2000, 5.5)).status).toBe(200);
    expect((await up(now - 1000, 12.5)).status).toBe(200);
    await expect
      .poll(() => receiver!.received.map((d) => d.body.event), { timeout: 20_000, interval: 250 })
      .toEqual(expect.arrayContaining(['reading', 'alarm']));
    for (const delivery of receiver.received) {
      expect(delivery.headers['x-signature']).toBe(
        `sha256=${createHmac('sha256', secret).update(delivery.raw).digest('hex')}`,
      );
      expect(delivery.headers['x-delivery-id']).toBe(delivery.body.deliveryId);
    }
    const readings = receiver.received.filter((d) => d.body.event === 'reading').flatMap((d) => d.body.items);
    expect(readings).toEqual(
      expect.arrayContaining([expect.objectContaining({ deviceSerial: SERIAL, channel: 1, value: 5.5 })]),
    );
    const alarm = receiver.received.find((d) => d.body.event === 'alarm')!;
    expect(alarm.body.items[0]).toMatchObject({
      deviceSerial: SERIAL,
      alarmType: 'overLimit',
      resolveState: 1,
    });

    // The deliveries page lists them.
    await row.locator('[data-testid^="push-deliveries-"]').click();
    await page.waitForURL(/customizedPushUrl\?id=/);
    await page.getByTestId('push-address').waitFor();
    await page.locator('[data-testid^="delivery-row-"]').filter({ hasText: 'Alarms' }).first().waitFor();
    const deliveriesUrl = page.url().replace(browser.baseUrl, '');

    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const path of [LIST_PATH, deliveriesUrl]) {
        await goClientSide(page, path);
        await page.locator('[data-testid^="push-row-"], [data-testid^="delivery-row-"]').first().waitFor();
        expect(await horizontalOverflow(page), `${path} at ${width}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    // The wide layout settled first: its user menu holds the language choice.
    await goClientSide(page, LIST_PATH);
    await row.waitFor();
    await switchLanguage(page, 'zh-CN');
    await page.getByTestId('page-title').getByText('推送链接对接').waitFor();
    await row.getByText('已启用', { exact: true }).waitFor();
    expect(
      await untranslatedText(page, ['Enabled', 'Pending', 'Readings', 'Deliveries', 'Add address']),
    ).toEqual([]);
    await goClientSide(page, deliveriesUrl);
    await page.getByText('已送达').first().waitFor();
    expect(await untranslatedText(page, ['Delivered', 'Attempts', 'Duration'])).toEqual([]);
    await context.close();
  });
});
