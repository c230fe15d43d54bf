/**
 * Delivery and receiving orders (issue 18): the demo administrator, as the dispatcher, creates a
 * shipment with a spare logger fed by the device simulator over HTTP, departs it and marks
 * it arrived; then, as the receiving company, receives it and downloads the delivery note. The
 * demo company is its own receiving company here: its "City clinic" address carries the demo
 * company's own code (modules/demo/demo-logistics.ts), so the same login sees the shipment in its
 * receiving orders, as a second company on the platform would. The pages fit 390 and 1366 px and
 * read in Chinese.
 *
 * SIM1014 and SIM1015 are this file's spare serials: the e2e server is shared by every spec file.
 *
 * data-testid used here (apps/web/src/pages/logistics/delivery-orders, receiving-orders):
 * - delivery-add, delivery-sender, delivery-receiver, delivery-devices, delivery-goods-name-0,
 *   delivery-goods-quantity-0, delivery-vehicle, delivery-save, delivery-keyword
 * - delivery-row-<id>, delivery-depart-<id>, delivery-depart-confirm, delivery-arrive-<id>,
 *   delivery-arrive-confirm
 * - receiving-row-<id>, receiving-receive-<id>, receive-remarks, receive-password, receive-submit,
 *   receiving-open-<id>, delivery-summary, delivery-note
 * - receipt page (pages/logistics/receipt): receipt-photo, receipt-photo-preview, receipt-name,
 *   receipt-signature, receipt-submit, receipt-note
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { solidPng } from '../../apps/server/src/test/png';
import type { DeliveryDetail } from '../../packages/contract/src/logistics';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import { consoleCall } from '../support/console-call';
import {
  consoleErrors,
  goClientSide,
  horizontalOverflow,
  motionSettled,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';
import { startSimulator } from '../support/simulator';

const SERIAL = 'SIM1014';
/** The second test's logger, for the receipt by link. */
const LINK_SERIAL = 'SIM1015';
const RUN = String(Date.now()).slice(-6);
const VEHICLE = `E2E-${RUN}`;
/** The signature password signature.spec.ts sets, asked only while audit signature is on. */
const SIGN_PASSWORD = 'sign2026';

async function choose(page: Page, testId: string, option: string, typed?: string) {
  await page.getByTestId(testId).click();
  if (typed) await page.keyboard.type(typed);
  await page
    .locator(
      `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${option}"]`,
    )
    .click();
  // A multiple select stays open after a pick and Escape closes it. A single select has closed
  // itself, and an Escape then reaches the dialog and closes it: the next field never appeared
  // (seen twice on slow clean clones, where the pick had finished closing before the key).
  const combobox = page.getByTestId(testId).locator('input[role="combobox"]');
  if ((await combobox.getAttribute('aria-expanded')) === 'true') await page.keyboard.press('Escape');
  // The list fades out; the next select's list must not be confused with it.
  await motionSettled(page);
}

describe('delivery and receiving orders', () => {
  const browser = useBrowser();

  it('creates, departs, arrives and receives a shipment, and downloads its delivery note', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    const logger = await consoleCall<{ id: string; deviceKey: string }>(page, '/api/device/addDevice', {
      serial: SERIAL,
      name: 'E2E truck logger',
    });

    // The dispatcher creates the order in the console.
    await goClientSide(page, '/logistics/deliveryOrder');
    await page.getByTestId('delivery-add').click();
    await page.getByTestId('delivery-sender').waitFor();
    await motionSettled(page);
    await choose(page, 'delivery-sender', 'Demo warehouse');
    await choose(page, 'delivery-receiver', 'City clinic');
    await choose(page, 'delivery-devices', `${SERIAL} E2E truck logger`, SERIAL);
    await page.getByTestId('delivery-goods-name-0').fill('Measles vaccine');
    await page.getByTestId('delivery-goods-quantity-0').fill('80 vials');
    await page.getByTestId('delivery-vehicle').fill(VEHICLE);
    await page.getByTestId('delivery-save').click();
    await page.getByTestId('delivery-vehicle').waitFor({ state: 'detached' });

    const search = page.getByTestId('delivery-keyword').locator('input');
    await search.fill(VEHICLE);
    await search.press('Enter');
    const row = page.locator('[data-testid^="delivery-row-"]').filter({ hasText: VEHICLE });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    const id = (await row.getAttribute('data-testid'))!.replace('delivery-row-', '');
    expect(await row.textContent()).toContain('Created');

    // Departure opens the record; the logger reports while the goods travel.
    await page.getByTestId(`delivery-depart-${id}`).click();
    await page.getByTestId('delivery-depart-confirm').click();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('In transit');
    // The device simulator is the logger in the box: it reports every second over HTTP.
    const simulator = startSimulator(browser.baseUrl, SERIAL, logger.deviceKey);
    const trip = () => consoleCall<DeliveryDetail>(page, '/api/logistics/deliveryDetail', { id });
    try {
      const deadline = Date.now() + 30_000;
      while ((await trip()).summary.readings < 3 && Date.now() < deadline) await page.waitForTimeout(500);
      expect((await trip()).summary.readings, simulator.log()).toBeGreaterThanOrEqual(3);
    } finally {
      await simulator.stop();
    }
    await page.getByTestId(`delivery-arrive-${id}`).click();
    await page.getByTestId('delivery-arrive-confirm').click();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('Arrived');

    // The receiving company (the demo company itself, through its clinic's company code).
    await goClientSide(page, '/logistics/receivingOrder');
    const received = page.getByTestId(`receiving-row-${id}`);
    await received.waitFor({ timeout: 30_000 });
    await page.getByTestId(`receiving-receive-${id}`).click();
    await page.getByTestId('receive-remarks').waitFor();
    await motionSettled(page);
    await page.getByTestId('receive-remarks').fill('Boxes sealed, record reviewed');
    if (await page.getByTestId('receive-password').isVisible())
      await page.getByTestId('receive-password').fill(SIGN_PASSWORD);
    await page.getByTestId('receive-submit').click();
    await expect.poll(() => received.textContent(), { timeout: 30_000 }).toContain('Received');

    await page.getByTestId(`receiving-open-${id}`).click();
    const summary = page.getByTestId('delivery-summary');
    await summary.waitFor();
    // The receiver reads the figures the server computed from the simulator's readings.
    const { summary: figures } = await trip();
    expect(figures.max).not.toBeNull();
    expect(await summary.textContent()).toContain(`${figures.max} °C`);
    expect(await page.getByTestId('delivery-receipt').textContent()).toContain('Demo Admin');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('delivery-note').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // Phone width and Chinese.
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, '/logistics/deliveryOrder');
    await page.getByTestId('delivery-add').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    // The order dialog fits the phone too.
    await page.getByTestId('delivery-add').click();
    await page.getByTestId('delivery-vehicle').waitFor();
    await motionSettled(page);
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('delivery-vehicle').waitFor({ state: 'detached' });
    await goClientSide(page, '/logistics/receivingOrder');
    await page.getByTestId(`receiving-row-${id}`).waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    // And the shipment's detail with its chart and summary.
    await page.getByTestId(`receiving-open-${id}`).click();
    await page.getByTestId('delivery-summary').waitFor();
    await motionSettled(page);
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 1366, height: 900 });
    await goClientSide(page, '/logistics/deliveryOrder');
    await page.getByTestId('delivery-add').waitFor();
    // The list's loading veil dims the rows: judge the colours once it is gone.
    await page.locator('[data-testid^="delivery-row-"]').first().waitFor();
    await page.locator('.ant-spin-blur').waitFor({ state: 'detached' });
    await motionSettled(page);
    expect(await seriousA11yFaults(page)).toEqual([]);
    await switchLanguage(page, 'zh-CN');
    await goClientSide(page, '/logistics/deliveryOrder');
    await page.getByText('新建运单').first().waitFor();
    expect(
      await untranslatedText(page, ['New delivery order', 'Detail', 'Created', 'Arrived', 'Received']),
    ).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, '/logistics/receivingOrder');
    await page.getByTestId(`receiving-row-${id}`).waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a receiver outside the platform sign the receipt by link, with a drawn signature', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    const logger = await consoleCall<{ id: string }>(page, '/api/device/addDevice', {
      serial: LINK_SERIAL,
      name: 'E2E cool box',
    });
    const addresses = await consoleCall<{ list: { id: string; name: string }[] }>(
      page,
      '/api/logistics/pageAddresses',
      {
        pageNum: 1,
        pageSize: 100,
      },
    );
    const idOf = (name: string) => addresses.list.find((a) => a.name === name)!.id;
    const order = await consoleCall<{ id: string }>(page, '/api/logistics/saveDelivery', {
      senderAddressId: idOf('Demo warehouse'),
      receiverAddressId: idOf('Harbour pharmacy'),
      goods: [{ name: 'Insulin', quantity: '10 boxes' }],
      tempMin: 2,
      tempMax: 8,
      deviceIds: [logger.id],
      vehicle: `${VEHICLE}-L`,
    });
    await consoleCall(page, '/api/logistics/departDelivery', { id: order.id });
    await consoleCall(page, '/api/logistics/arriveDelivery', { id: order.id });

    // The dispatcher sends the link; the dialog shows it too.
    await goClientSide(page, '/logistics/deliveryOrder');
    await page.getByTestId(`delivery-link-${order.id}`).click();
    await page.getByTestId('delivery-link-recipient').waitFor();
    await motionSettled(page);
    await page.getByTestId('delivery-link-recipient').fill('pharmacy@example.com');
    await page.getByTestId('delivery-link-send').click();
    const url = (await page.getByTestId('delivery-link-url').textContent())!.trim();
    expect(url).toMatch(/\/receipt\/[A-Za-z0-9_-]{40,}$/);

    // The receiver opens it without an account, on a phone.
    const outside = await browser.browser.newContext({
      baseURL: browser.baseUrl,
      viewport: { width: 390, height: 844 },
    });
    const receiver = await outside.newPage();
    const errors = consoleErrors(receiver);
    await receiver.goto(new URL(url).pathname);
    await receiver.getByTestId('receipt-name').waitFor({ timeout: 30_000 });
    expect(await receiver.getByTestId('delivery-detail').textContent()).toContain('Insulin');
    expect(await horizontalOverflow(receiver)).toEqual([]);
    // A photo of the boxes at the door, uploaded with the link's token as the only credential.
    await receiver.getByTestId('receipt-photo').setInputFiles({
      name: 'boxes.png',
      mimeType: 'image/png',
      buffer: solidPng(48, 32, [40, 110, 190]),
    });
    await receiver.getByTestId('receipt-photo-preview').waitFor();
    await receiver.getByTestId('receipt-name').fill('Chen Jie');
    await receiver.getByTestId('receipt-signature').scrollIntoViewIfNeeded();
    const pad = await receiver.getByTestId('receipt-signature').boundingBox();
    await receiver.mouse.move(pad!.x + 20, pad!.y + 20);
    await receiver.mouse.down();
    await receiver.mouse.move(pad!.x + 120, pad!.y + 60, { steps: 5 });
    await receiver.mouse.move(pad!.x + 200, pad!.y + 30, { steps: 5 });
    await receiver.mouse.up();
    await receiver.getByTestId('receipt-submit').click();
    await receiver.getByTestId('delivery-receipt').waitFor();
    expect(await receiver.getByTestId('delivery-receipt').textContent()).toContain('Chen Jie');
    const [download] = await Promise.all([
      receiver.waitForEvent('download'),
      receiver.getByTestId('receipt-note').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    // The note prints the photo and the drawn signature (pdfkit writes object headers as text).
    const pdf = await readFile((await download.path())!);
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
    await outside.close();

    // The sender sees the order received.
    const detail = await consoleCall<{
      state: number;
      receipt: { signedBy: string; method: string; photo: string };
    }>(page, '/api/logistics/deliveryDetail', { id: order.id });
    expect(detail).toMatchObject({ state: 4, receipt: { signedBy: 'Chen Jie', method: 'drawn' } });
    expect(detail.receipt.photo).toMatch(/^\/files\/[a-f0-9]{32}\.png$/);
    await context.close();
  });
});
