/**
 * Cold-chain equipment (issue 14): a type with one attribute of each kind, equipment of it with a
 * demo sensor bound and a demo group, a refused scrap, a repair and a calibration with a PDF certificate on the detail page's
 * timeline; the detail page at 390 and 1366 px, and in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/equipment):
 * - type-add-open / type-name / type-code / type-attribute-add / type-save, type-row-<code>;
 *   type-attribute-<i>-name|kind|unit|options: the i-th attribute of the type editor
 * - equipment-add-open / equipment-type-select / equipment-serial-suffix / equipment-name /
 *   equipment-sensors / equipment-save; equipment-attribute-<i>: the i-th archive value
 * - equipment-serial, equipment-archive, equipment-sensors-table: detail page
 * - record-add-open, record-add-<kind>, record-<field>, record-save, record-certificate-upload;
 *   equipment-timeline with timeline-item-<kind> and timeline-certificate
 *
 * - equipment-group-select, scrap-confirm-ok: binding to a group refuses a scrap
 *
 * DEMO0002 is this file's sensor: the demo equipment holds DEMO0001, 3, 5 and 7.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import { goClientSide, horizontalOverflow, motionSettled, untranslatedText } from '../support/page-checks';
import { OPEN_DROPDOWN } from '../support/select';

const TYPE_PATH = '/deviceManagement/equipment/equipmentType';
const LIST_PATH = '/deviceManagement/equipment';
/** Unique per run: the e2e server may be shared with other spec files. */
const CODE = `8${String(Date.now()).slice(-6)}`;
const SUFFIX = '0042';
const NAME = 'E2E vaccine fridge';
const SENSOR_MONITOR = 'DEMO0002';
const GROUP = 'Vaccine fridges';

/** The smallest file the server takes as a PDF: it sniffs `%PDF-` at the start. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A 1x1 PNG for the attachment attribute. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Picks `label` in the open antd select dropdown, then waits for it to finish closing: a dropdown
 * fading out still shows its options, and the next pick would click them instead.
 */
async function pickOption(page: Page, label: string) {
  await page.locator(`${OPEN_DROPDOWN} .ant-select-item-option`).filter({ hasText: label }).first().click();
  await expect.poll(() => page.locator(OPEN_DROPDOWN).count()).toBe(0);
}

/** Types a date (and time) into an antd DatePicker and confirms it. */
async function fillDate(page: Page, testId: string, text: string) {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(text);
  // Enter takes the typed value and closes the panel (with time too); wait for it to be gone.
  await input.press('Enter');
  await page
    .locator('.ant-picker-dropdown:visible')
    .waitFor({ state: 'detached', timeout: 30_000 })
    .catch(() => undefined);
  expect(await input.inputValue()).toBe(text);
}

async function createType(page: Page) {
  await goClientSide(page, TYPE_PATH);
  await page.getByTestId('type-add-open').click();
  await page.getByTestId('type-name').fill('E2E fridge type');
  await page.getByTestId('type-code').fill(CODE);
  const kinds = [
    { name: 'Model', kind: 'Text' },
    { name: 'Volume', kind: 'Number' },
    { name: 'Manual', kind: 'Attachment' },
    { name: 'Zone', kind: 'Choice' },
  ];
  for (const [index, attribute] of kinds.entries()) {
    await page.getByTestId('type-attribute-add').click();
    const prefix = `type-attribute-${index}`;
    await page.getByTestId(`${prefix}-name`).fill(attribute.name);
    if (attribute.kind !== 'Text') {
      await page.getByTestId(prefix).locator('.ant-select').first().click();
      await pickOption(page, attribute.kind);
    }
  }
  await page.getByTestId('type-attribute-1-unit').fill('L');
  const options = page.getByTestId('type-attribute-3').locator('.ant-select input').last();
  for (const option of ['Vaccines', 'Blood']) {
    await options.fill(option);
    await options.press('Enter');
  }
  await page.getByTestId('type-save').click();
  await page.getByTestId(`type-row-${CODE}`).waitFor();
  const row = (await page.getByTestId(`type-row-${CODE}`).textContent()) ?? '';
  for (const name of ['Model', 'Volume', 'Manual', 'Zone']) expect(row).toContain(name);
}

async function createEquipment(page: Page) {
  await goClientSide(page, LIST_PATH);
  await page.getByTestId('equipment-add-open').click();
  await page.getByTestId('equipment-type-select').click();
  await pickOption(page, `(${CODE})`);
  await page.getByTestId('equipment-serial-suffix').fill(SUFFIX);
  await page.getByTestId('equipment-name').fill(NAME);
  await page.getByTestId('equipment-attribute-0').fill('XC-200');
  await page.getByTestId('equipment-attribute-1').fill('120.5');
  const modal = page.locator('.ant-modal:visible');
  await modal
    .locator('input[type=file]')
    .setInputFiles({ name: 'manual.png', mimeType: 'image/png', buffer: PNG });
  await page.getByTestId('equipment-attribute-2-file').waitFor();
  await page.getByTestId('equipment-attribute-3').getByText('Vaccines', { exact: true }).click();
  await page.getByTestId('equipment-group-select').click();
  await pickOption(page, GROUP);
  await page.getByTestId('equipment-sensors').click();
  // A multiple select stays open after a pick: Escape closes it.
  await page
    .locator(`${OPEN_DROPDOWN} .ant-select-item-option`)
    .filter({ hasText: SENSOR_MONITOR })
    .first()
    .click();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator(OPEN_DROPDOWN).count()).toBe(0);
  await page.getByTestId('equipment-save').click();
  // A new equipment opens its detail page.
  await page.waitForURL(/equipmentDetail\?id=/);
  await page.getByTestId('equipment-serial').waitFor();
  expect(await page.getByTestId('equipment-serial').textContent()).toBe(`${CODE}${SUFFIX}`);
  const archive = (await page.getByTestId('equipment-archive').textContent()) ?? '';
  for (const value of ['XC-200', '120.5', 'Vaccines']) expect(archive).toContain(value);
  expect(await page.getByTestId('equipment-sensors-table').textContent()).toContain(SENSOR_MONITOR);
  expect(await page.getByTestId('equipment-header').textContent()).toContain(GROUP);
}

/** Spec: a scrap is refused while the equipment is bound to a group, and nothing is recorded. */
async function scrapRefusedWhileGrouped(page: Page) {
  await openRecordForm(page, 'scrap');
  await page.getByTestId('record-save').click();
  await page.getByTestId('scrap-confirm-ok').waitFor();
  await page.getByTestId('scrap-confirm-ok').click();
  await page.getByText('Equipment bound to a group cannot be scrapped until unbound').first().waitFor();
  // The confirmation closes once the answer is in; the record form stays open for a change.
  await expect.poll(() => page.locator('.ant-modal-confirm:visible').count()).toBe(0);
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => page.locator('.ant-modal:visible').count()).toBe(0);
  expect(await page.getByTestId('timeline-item-scrap').count()).toBe(0);
}

/**
 * Opens the record form of `kind` from the "add record" menu, and waits for the form to stop
 * zooming in before it is filled (clicks wait by themselves, `clicksWaitForMotion`).
 */
async function openRecordForm(page: Page, kind: 'repair' | 'calibration' | 'scrap') {
  await page.getByTestId('record-add-open').click();
  await page.getByTestId(`record-add-${kind}`).waitFor();
  await page.getByTestId(`record-add-${kind}`).click();
  await page.getByTestId('record-save').waitFor();
  await motionSettled(page);
}

async function addRepair(page: Page) {
  await openRecordForm(page, 'repair');
  await page.getByTestId('record-unit').fill('CoolFix Ltd');
  await page.getByTestId('record-person').fill('Wang Wei');
  await fillDate(page, 'record-faultTime', '2026-11-20 08:30');
  await page.getByTestId('record-cause').fill('Door seal worn');
  await page.getByTestId('record-repaired').getByText('Yes', { exact: true }).click();
  await fillDate(page, 'record-repairTime', '2026-11-21 10:00');
  await page.getByTestId('record-save').click();
  await page.getByTestId('timeline-item-repair').waitFor();
}

async function addCalibration(page: Page) {
  await openRecordForm(page, 'calibration');
  await fillDate(page, 'record-calibratedAt', '2026-11-22');
  await fillDate(page, 'record-nextDueAt', '2027-11-22');
  await page.getByTestId('record-institution').fill('National Metrology Lab');
  await page
    .locator('.ant-modal:visible input[type=file]')
    .setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page
    .locator('.ant-modal:visible .ant-upload-list-item-done, .ant-modal:visible .ant-upload-list-item')
    .first()
    .waitFor();
  await expect.poll(() => page.getByTestId('record-save').isEnabled()).toBe(true);
  await page.getByTestId('record-save').click();
  await page.getByTestId('timeline-item-calibration').waitFor();
}

describe('equipment', () => {
  const browser = useBrowser();

  it('creates a type with every attribute kind, equipment with a demo sensor and group, and a repair and a calibration on its timeline', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    await createType(page);
    await createEquipment(page);
    await addRepair(page);
    await addCalibration(page);
    await scrapRefusedWhileGrouped(page);

    const timeline = page.getByTestId('equipment-timeline');
    const repair = (await timeline.getByTestId('timeline-item-repair').textContent()) ?? '';
    expect(repair).toContain('CoolFix Ltd');
    expect(repair).toContain('Door seal worn');
    const calibration = (await timeline.getByTestId('timeline-item-calibration').textContent()) ?? '';
    expect(calibration).toContain('National Metrology Lab');
    const certificate = await timeline.getByTestId('timeline-certificate').getAttribute('href');
    expect(certificate).toMatch(/^\/files\/[a-f0-9]{32}\.pdf$/);
    const download = await page.request.get(certificate!);
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // The detail page fits the window, wide and phone-sized.
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('timeline-item-calibration').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });

    // Simplified Chinese: the same page and timeline, nothing left in English or as a key.
    await switchLanguage(page, 'zh-CN');
    await page.getByTestId('equipment-timeline').getByText('维修', { exact: true }).waitFor();
    expect(await page.getByTestId('equipment-timeline').getByText('校准', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('page-title').textContent()).toContain(NAME);
    expect(await untranslatedText(page, ['Repair', 'Calibration', 'In use', 'Timeline'])).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // The list and the type screens, in Chinese on a phone: they fit and show the new rows.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, row] of [
      [LIST_PATH, `equipment-row-${CODE}${SUFFIX}`],
      [TYPE_PATH, `type-row-${CODE}`],
    ] as const) {
      await goClientSide(page, path);
      await page.getByTestId(row).waitFor();
      expect(await horizontalOverflow(page), path).toEqual([]);
      expect(
        await untranslatedText(page, ['In use', 'Text', 'Number', 'Attachment', 'Choice']),
        path,
      ).toEqual([]);
    }
    await context.close();
  });
});
