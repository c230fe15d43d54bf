/**
 * Expense management (issue 17 item 1) against the demo: the message credit balance, its ledger
 * with the demo's starting grant, an export through the server, and the company's orders, at 1366
 * and 390 px, in English and Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/billing/expenses): credit-balance, credit-ledger,
 * ledger-filter-kind, ledger-export, audit-export-format, audit-export-submit, credit-top-up.
 */
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';
import {
  consoleErrors,
  goClientSide,
  horizontalOverflow,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';

const PATH = '/user/addedServices';

describe('expense management', () => {
  const browser = useBrowser();

  it('shows the balance and the ledger, exports it as CSV, and fits 1366 and 390 px', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    await loginAsDemo(page);
    await page.waitForURL(/\/home/);
    await goClientSide(page, PATH);
    await expect
      .poll(() => page.getByTestId('credit-balance').textContent(), { timeout: 20_000 })
      .toMatch(/^\d[\d,]* credits?$/);
    // The demo's alarms may have paid for many messages since: the grants alone hold the start.
    await page.getByTestId('ledger-filter-kind').click();
    await page.getByTitle('Top-up / grant').click();
    await page.getByTestId('credit-ledger').getByText('Demo starting balance').waitFor({ timeout: 20_000 });

    await page.getByTestId('ledger-export').click();
    await page.getByTestId('audit-export-format').waitFor();
    await page.getByTestId('audit-export-format').getByText('CSV (.csv)').click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('audit-export-submit').click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^credit-ledger-\d{8}-\d{8}\.csv$/);
    const text = (await readDownload(csv)).toString('utf8');
    expect(text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'Time,Entry type,Credits,Channel,Alarm ID,Alarm type,Device,Serial number,Reason',
    );

    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await seriousA11yFaults(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, PATH);
    await page.getByTestId('credit-balance').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.getByTestId('credit-top-up').click();
    await page.getByTestId('buy-credits-count').waitFor();
    expect(await seriousA11yFaults(page)).toEqual([]);
    await page.getByTestId('buy-credits-submit').click();
    await page.waitForURL(/\/user\/addedServices\/serviceList/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads in Simplified Chinese', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    await context.addCookies([{ name: 'language', value: 'zh-CN', url: browser.baseUrl }]);
    await loginAsDemo(page);
    await page.waitForURL(/\/home/);
    await goClientSide(page, PATH);
    await page.getByTestId('credit-balance').waitFor({ timeout: 20_000 });
    await page.getByTestId('credit-ledger').locator('.ant-table-tbody').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toBe('费用管理');
    // Before a filter opens: an open select keeps its options' raw values in the page for screen readers.
    expect(
      await untranslatedText(page, ['grant', 'debit', 'refund', 'Message sent', 'credits', 'starter credit']),
    ).toEqual([]);
    await page.getByTestId('ledger-filter-kind').click();
    await page.getByTitle('充值/赠送').click();
    await page.getByTestId('credit-ledger').getByText('演示初始余额').waitFor({ timeout: 20_000 });
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, PATH);
    await page.getByTestId('credit-balance').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

async function readDownload(download: import('playwright-core').Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
