/**
 * Logistics address management (issue 18 item 1): the demo administrator adds an address, finds
 * it in the list, edits it, in English and in Simplified Chinese; the page fits 390 and 1366 px.
 * The demo company has every supplier service on (modules/demo), logistics included.
 *
 * data-testid used here (apps/web/src/pages/logistics/addresses):
 * - address-add / address-name / address-contact / address-phone / address-region /
 *   address-address / address-lng / address-lat / address-save
 * - address-keyword, address-row-<id>, address-edit-<id>
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

const PATH = '/logistics/addressManagement';
/** Unique per run: the e2e server may be shared with other spec files. */
const RUN = String(Date.now()).slice(-6);

function row(page: Page, name: string) {
  return page.locator('[data-testid^="address-row-"]').filter({ hasText: name });
}

async function addAddress(page: Page, name: string) {
  await page.getByTestId('address-add').click();
  await page.getByTestId('address-name').fill(name);
  await page.getByTestId('address-contact').fill('Li Wei');
  await page.getByTestId('address-phone').fill('13800138000');
  await page.getByTestId('address-region').fill('Guangdong/Shenzhen');
  await page.getByTestId('address-address').fill('8 Cold Store Road');
  await page.getByTestId('address-lng').fill('114.05');
  await page.getByTestId('address-lat').fill('22.54');
  await page.getByTestId('address-save').click();
  await page.getByTestId('address-name').waitFor({ state: 'detached' });
}

async function search(page: Page, keyword: string) {
  const box = page.getByTestId('address-keyword').locator('input');
  await box.fill(keyword);
  await box.press('Enter');
}

async function rename(page: Page, from: string, to: string) {
  await search(page, from);
  await row(page, from).locator('[data-testid^="address-edit-"]').click();
  const name = page.getByTestId('address-name');
  await name.waitFor();
  expect(await name.inputValue()).toBe(from);
  await name.fill(to);
  await page.getByTestId('address-save').click();
  await name.waitFor({ state: 'detached' });
  await search(page, to);
  await row(page, to).waitFor();
}

describe('logistics addresses', () => {
  const browser = useBrowser();

  it('adds, lists and edits an address in English and Chinese, fitting 390 and 1366 px', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.setViewportSize({ width: 1366, height: 900 });

    const english = `E2E warehouse ${RUN}`;
    await goClientSide(page, PATH);
    await page.getByTestId('address-add').waitFor();
    await addAddress(page, english);
    await search(page, english);
    await row(page, english).waitFor();
    const listed = (await row(page, english).textContent()) ?? '';
    expect(listed).toContain('Li Wei');
    expect(listed).toContain('114.05000, 22.54000');
    await rename(page, english, `${english} east`);
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await seriousA11yFaults(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, PATH);
    await page.getByTestId('address-add').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    // The add dialog fits the phone too.
    await page.getByTestId('address-add').click();
    await page.getByTestId('address-name').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('address-name').waitFor({ state: 'detached' });

    await page.setViewportSize({ width: 1366, height: 900 });
    await switchLanguage(page, 'zh-CN');
    await goClientSide(page, PATH);
    await page.getByText('新增地址').first().waitFor();
    const chinese = `E2E 冷库 ${RUN}`;
    await addAddress(page, chinese);
    await search(page, chinese);
    await row(page, chinese).waitFor();
    await rename(page, chinese, `${chinese} 东`);
    expect(await untranslatedText(page, ['Add address', 'Edit', 'Delete', 'Contact', 'Remarks'])).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, PATH);
    await page.getByText('新增地址').first().waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
