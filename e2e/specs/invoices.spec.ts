/**
 * Invoices (issue 17 item 4) against the demo: the demo company applies for an invoice on a paid
 * order, the demo operator issues it with a PDF, the company downloads that PDF and receives the
 * e-mail of an electronic invoice; the pages fit 390 px and read in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/billing/invoices, pages/operator/invoices):
 * invoice-apply, invoice-title, invoice-email, invoice-proof-input,
 * invoice-apply-submit, invoice-row-<id>, invoice-status, invoice-download, operator-invoice-<id>,
 * invoice-issue, invoice-pdf-input, invoice-pdf-done, invoice-issue-submit.
 */
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, loginAsDemo, newPage, useBrowser } from '../support/browser';
import { waitForMail } from '../support/mail';
import { consoleErrors, goClientSide, horizontalOverflow } from '../support/page-checks';

const OPERATOR = { account: 'operator@example.com', password: 'Demo1234' };
/** Unique per run: the e2e server is shared with other spec files. */
const TITLE = `E2E Invoice ${String(Date.now()).slice(-6)}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function loginAsOperator(page: Page) {
  await page.goto('/');
  await page.waitForURL(/\/login/);
  await page.getByTestId('login-account').fill(OPERATOR.account);
  await page.getByTestId('login-password').fill(OPERATOR.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home$/);
}

async function readDownload(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('invoices', () => {
  const browser = useBrowser();

  it('company applies on a paid order, the operator issues it with a PDF, the company downloads it', async () => {
    const company = await newPage(browser);
    const errors = consoleErrors(company.page);
    await loginAsDemo(company.page);
    await company.page.waitForURL(/\/home/);
    await goClientSide(company.page, '/user/applicationForInvoice');
    await company.page.getByTestId('invoice-apply').click();
    // The demo holds a paid top-up of RM300 that no application covers yet.
    const paid = company.page.locator('.ant-checkbox-wrapper').filter({ hasText: 'RM 300.00' }).first();
    await paid.waitFor({ timeout: 20_000 });
    await paid.click();
    await expect.poll(() => company.page.getByTestId('invoice-sum').textContent()).toContain('RM 300.00');
    await company.page.getByTestId('invoice-title').fill(TITLE);
    await company.page.getByTestId('invoice-email').fill(DEMO.account);
    await company.page
      .getByTestId('invoice-proof-input')
      .setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: PNG });
    await company.page.getByTestId('invoice-proof-preview').waitFor();
    await company.page.getByTestId('invoice-apply-submit').click();
    const row = company.page.locator('[data-testid^="invoice-row-"]').filter({ hasText: TITLE });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getByTestId('invoice-status').textContent()).toBe('Application in progress');
    const id = (await row.getAttribute('data-testid'))!.replace('invoice-row-', '');

    const operator = await newPage(browser);
    await loginAsOperator(operator.page);
    await goClientSide(operator.page, '/operator/invoices');
    const pending = operator.page.getByTestId(`operator-invoice-${id}`);
    await pending.waitFor({ timeout: 20_000 });
    expect(await pending.textContent()).toContain(DEMO.company);
    await pending.getByTestId('invoice-issue').click();
    await operator.page
      .getByTestId('invoice-pdf-input')
      .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
    await operator.page.getByTestId('invoice-pdf-done').waitFor();
    await operator.page.getByTestId('invoice-issue-submit').click();
    // Issued: it leaves the list of applications in progress.
    await pending.waitFor({ state: 'detached', timeout: 20_000 });
    await operator.context.close();

    await company.page.reload();
    const issued = company.page.getByTestId(`invoice-row-${id}`);
    await expect
      .poll(() => issued.getByTestId('invoice-status').textContent(), { timeout: 20_000 })
      .toBe('Invoice generated');
    const [download] = await Promise.all([
      company.page.waitForEvent('download'),
      issued.getByTestId('invoice-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`invoice-${id}.pdf`);
    expect((await readDownload(download)).toString('latin1')).toBe(PDF.toString('latin1'));
    await waitForMail(DEMO.account, /RM300\.00 has been issued/);

    expect(await horizontalOverflow(company.page)).toEqual([]);
    await company.page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(company.page, '/user/applicationForInvoice');
    await company.page.getByTestId(`invoice-row-${id}`).waitFor();
    expect(await horizontalOverflow(company.page)).toEqual([]);
    expect(errors).toEqual([]);
    await company.context.close();
  });

  it('reads in Simplified Chinese with amounts in 元', async () => {
    const { context, page } = await newPage(browser);
    await context.addCookies([{ name: 'language', value: 'zh-CN', url: browser.baseUrl }]);
    await loginAsDemo(page);
    await page.waitForURL(/\/home/);
    await goClientSide(page, '/user/applicationForInvoice');
    expect(await page.getByTestId('page-title').textContent()).toBe('发票管理');
    // The demo's application in progress over its RM250 top-up.
    const row = page.locator('[data-testid^="invoice-row-"]').filter({ hasText: '250.00 元' }).first();
    await row.waitFor({ timeout: 20_000 });
    await goClientSide(page, '/user/addedServices/serviceList');
    expect(await page.getByTestId('page-title').textContent()).toBe('充值记录');
    await page.locator('[data-testid^="service-order-"]').first().waitFor({ timeout: 20_000 });
    await context.close();
  });
});
