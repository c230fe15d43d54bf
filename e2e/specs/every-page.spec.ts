import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, newPage, useBrowser } from '../support/browser';
import {
  consoleErrors,
  goClientSide,
  hiddenTabs,
  horizontalOverflow,
  motionSettled,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';

/*
 * Every page of the menu, as a new user meets it (issue 20), in English and Chinese: at 1366 px
 * and at 390 px nothing is wider than the window, no i18n key and (in Chinese) no English enum
 * value shows, axe-core finds no serious or critical WCAG fault, and the two lists whose last
 * columns used to scroll out of view keep their state and actions visible at 1366 px. The menu
 * is the one the server gives the demo administrator (every page), so a new page is walked
 * without being listed here. One browser, one context per language with the two walking side by
 * side, client-side navigation, and axe in the English pass only keep it quick. Console errors
 * and uncaught exceptions on any page fail the walk too. Two more checks close the file: a
 * dialog worked by keyboard alone, and a resolved alarm without its "still open" banner.
 */

interface MenuEntry {
  url: string;
  type: number;
  children?: MenuEntry[];
}

const PAGE_TYPE = 1;

const WIDE = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

const catalogue = (language: string, domain: string) =>
  JSON.parse(
    readFileSync(
      path.resolve(import.meta.dirname, `../../apps/web/src/i18n/${language}/${domain}.json`),
      'utf8',
    ),
  ) as Record<string, Record<string, unknown>>;

/** English enum texts and raw enum values that must never show on a Chinese screen. */
function englishEnumWords(): string[] {
  const devices = catalogue('en', 'devices');
  const alarms = catalogue('en', 'alarms');
  const groups = [
    devices.state,
    (devices.sensor as Record<string, unknown>).state,
    devices.mode,
    devices.power,
    devices.version,
    alarms.type,
    alarms.resolveState,
    alarms.resolveType,
  ] as Record<string, string>[];
  const words = groups.flatMap((group) => [
    ...Object.values(group),
    ...Object.keys(group).filter((key) => /^[a-z]/.test(key) && key !== 'all'),
  ]);
  return [...new Set(words)];
}

function pagesOf(menus: MenuEntry[]): string[] {
  return menus.flatMap((m) => [...(m.type === PAGE_TYPE ? [m.url] : []), ...pagesOf(m.children ?? [])]);
}

/** Logs in as the demo administrator in `language` and returns the menu the server sent. */
async function logIn(page: Page, baseUrl: string, language: 'en' | 'zh-CN'): Promise<string[]> {
  await page.context().addCookies([{ name: 'language', value: language, url: baseUrl }]);
  await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
  const powers = page.waitForResponse((r) => r.url().endsWith('/api/index/getUserPowers'));
  await page.goto('/login');
  await page.getByTestId('login-account').fill(DEMO.account);
  await page.getByTestId('login-password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  const menus = ((await (await powers).json()) as { data: { menus: MenuEntry[] } }).data.menus;
  await page.waitForURL(/\/home$/);
  await page.getByTestId('page-title').waitFor();
  return pagesOf(menus);
}

/** Whether the column headed `title` lies inside the visible part of the table on `url`. */
async function columnInView(page: Page, title: string): Promise<boolean> {
  const header = page.locator('.ant-table-thead th', { hasText: title }).first();
  await header.waitFor();
  const [cell, table] = await Promise.all([
    header.boundingBox(),
    page.locator('.ant-table-container').first().boundingBox(),
  ]);
  if (!cell || !table) return false;
  return (
    cell.x >= table.x - 1 &&
    cell.x + cell.width <= table.x + table.width + 1 &&
    cell.x + cell.width <= WIDE.width
  );
}

describe('every menu page', () => {
  const browser = useBrowser();

  for (const language of ['en', 'zh-CN'] as const) {
    it.concurrent(`fits 1366 and 390 px, is translated and passes axe (${language})`, async () => {
      const { context, page } = await newPage(browser, WIDE);
      const errors = consoleErrors(page);
      const pages = await logIn(page, browser.baseUrl, language);
      expect(pages.length).toBeGreaterThan(15);
      const english = language === 'zh-CN' ? englishEnumWords() : [];
      const problems: string[] = [];

      for (const url of ['/home', ...pages.filter((p) => p !== '/home')]) {
        await goClientSide(page, url);
        for (const found of await horizontalOverflow(page)) problems.push(`${url} at 1366 px: ${found}`);
        for (const found of await hiddenTabs(page)) problems.push(`${url} at 1366 px: ${found}`);
        for (const found of await untranslatedText(page, english)) problems.push(`${url}: ${found}`);
        // axe once per page (the English pass): the Chinese screens share every element.
        if (language === 'en')
          for (const fault of await seriousA11yFaults(page))
            problems.push(
              `${url}: axe ${fault.id} (${fault.impact}) ${fault.help}: ${fault.targets.join(' | ')}`,
            );
      }

      // Key columns at a laptop's width: the alarm list's state and actions, the monitors' actions.
      const columns =
        language === 'en' ? ['Resolve state', 'Actions', 'State'] : ['处理状态', '操作', '状态'];
      await goClientSide(page, '/alarm/alarmInfo');
      for (const title of columns.slice(0, 2))
        if (!(await columnInView(page, title)))
          problems.push(`/alarm/alarmInfo: column ${title} out of view`);
      await goClientSide(page, '/deviceManagement/monitoringDevice');
      for (const title of columns.slice(1))
        if (!(await columnInView(page, title)))
          problems.push(`/deviceManagement/monitoringDevice: column ${title} out of view`);

      // A phone: the same pages, nothing wider than the screen.
      await page.setViewportSize(PHONE);
      for (const url of pages) {
        await goClientSide(page, url);
        for (const found of await horizontalOverflow(page)) problems.push(`${url} at 390 px: ${found}`);
      }
      expect([...problems, ...errors]).toEqual([]);
      await context.close();
      // About 30 pages twice over, with axe on the first pass, on a busy 2-core machine: the Chinese
      // pass took 253 s on a slow clean clone and the English one (with axe) passed 300 s.
    }, 480_000);
  }

  it('opens, fills and closes a dialog with the keyboard alone', async () => {
    const { context, page } = await newPage(browser, WIDE);
    const errors = consoleErrors(page);
    await logIn(page, browser.baseUrl, 'en');
    await goClientSide(page, '/deviceManagement/monitoringDevice');
    const focusedTestId = () =>
      page.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid'));
    // Tab from the top of the page to "Add monitor", as someone without a mouse would.
    let reached = false;
    for (let tab = 0; tab < 80 && !reached; tab++) {
      await page.keyboard.press('Tab');
      reached = (await focusedTestId()) === 'add-device-open';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    // The dialog takes the focus to its first field; typing fills it.
    await expect.poll(focusedTestId).toBe('add-device-serial');
    // rc-dialog focuses the dialog itself when its opening zoom ends, if the focus is not inside
    // it. A Tab pressed in the instant that end is committed (a live alarm notice re-rendering
    // the page makes it likely on a loaded machine) is caught in flight, with the focus on the
    // body, and sent to the dialog instead of the next field: the failed CI run of 3af95b3,
    // reproduced 2 times in 40 here. People do not type before a dialog has opened; the test waits.
    await motionSettled(page);
    await page.keyboard.type('KEY0001');
    expect(await page.getByTestId('add-device-serial').inputValue()).toBe('KEY0001');
    await page.keyboard.press('Tab');
    expect(await focusedTestId()).toBe('add-device-name');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('add-device-serial').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows why an open alarm is still open, and stops once it is resolved', async () => {
    const { context, page } = await newPage(browser, WIDE);
    const errors = consoleErrors(page);
    await logIn(page, browser.baseUrl, 'en');
    // The demo's warm ward fridge keeps its over-limit alarm open: its value is still above 8 °C.
    await goClientSide(page, '/alarm/alarmInfo');
    const row = page.locator('tr[data-serial="DEMO0012"]', { hasText: 'Over-limit alarm' }).first();
    await row.getByTestId('alarm-detail-link').click();
    await page.getByTestId('alarm-detail').waitFor();
    await page.getByTestId('alarm-clearing').waitFor();

    await page.getByTestId('alarm-resolve-open').click();
    await page
      .getByTestId('alarm-resolve-cause')
      .fill('Door seal replaced; product moved to the spare fridge');
    await page.getByTestId('alarm-resolve-submit').click();
    await expect
      .poll(async () => page.getByTestId('alarm-resolve-state').first().textContent(), { timeout: 30_000 })
      .toBe('Resolved');
    expect(await page.getByTestId('alarm-clearing').count()).toBe(0);
    // And after a reload, from the server's answer alone.
    await page.reload();
    await page.getByTestId('alarm-detail').waitFor();
    expect(await page.getByTestId('alarm-clearing').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
