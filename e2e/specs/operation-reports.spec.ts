/**
 * Operation reports (issue 15 item 3): a task for the whole demo company made on `taskManage`,
 * run now; the report is listed on `operationReport` as done, opens with its figures, downloads as
 * a PDF and arrives by e-mail; both pages fit a 390 px phone without sideways scrolling.
 *
 * data-testid used here (apps/web/src/pages/operation-reports):
 * - task-add-open / task-name / task-emails / task-save, task-row-<id>, task-run-<id>
 * - run-row-<id>, run-status-<status>, run-view-<id>, report-view, view-availability,
 *   report-view-download
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';
import { sentMails } from '../support/mail';
import { consoleErrors, goClientSide, horizontalOverflow } from '../support/page-checks';

const REPORTS_PATH = '/monitoring/operationReport';
const TASKS_PATH = '/monitoring/operationReport/taskManage';
/** Unique per run: the e2e server may be shared with other spec files. */
const STAMP = String(Date.now()).slice(-7);
const TASK = `E2E operations ${STAMP}`;
const ADDRESS = `operations-${STAMP}@example.com`;

describe('operation reports', () => {
  const browser = useBrowser();

  it('creates a task, runs it now, shows the report with its figures, downloads and mails its PDF', async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(20_000);
    const errors = consoleErrors(page);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    await goClientSide(page, TASKS_PATH);
    await page.getByTestId('task-add-open').click();
    await page.getByTestId('task-name').fill(TASK);
    const emails = page.getByTestId('task-emails').locator('input');
    await emails.fill(ADDRESS);
    await emails.press('Enter');
    await page.getByTestId('task-save').click();
    const row = page.locator('[data-testid^="task-row-"]').filter({ hasText: TASK });
    await row.waitFor();
    expect(await row.textContent()).toContain('Whole company');
    const taskId = (await row.getAttribute('data-testid'))!.replace('task-row-', '');
    await page.getByTestId(`task-run-${taskId}`).click();

    await goClientSide(page, REPORTS_PATH);
    const run = page.locator('[data-testid^="run-row-"]').filter({ hasText: TASK }).first();
    await run.waitFor();
    // Queued, then done: the list refreshes while a report is being made.
    await run.getByTestId('run-status-done').waitFor({ timeout: 30_000 });
    const runId = (await run.getAttribute('data-testid'))!.replace('run-row-', '');
    await page.getByTestId(`run-view-${runId}`).click();
    const view = page.getByTestId('report-view');
    await view.waitFor();
    expect(await page.getByTestId('view-availability').textContent()).toMatch(
      /Availability\s*(\d+\.\d%|n\/a)/,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('report-view-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^operation-report-\d{8}-\d{8}\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const deadline = Date.now() + 30_000;
    let mail = sentMails().find((m) => m.to.includes(ADDRESS));
    while (!mail && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      mail = sentMails().find((m) => m.to.includes(ADDRESS));
    }
    expect(mail, `a mail to ${ADDRESS}`).toBeTruthy();
    expect(mail!.raw).toMatch(/content-disposition:\s*attachment/i);
    expect(mail!.raw).toContain(download.suggestedFilename());
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('fits a 390 px phone on both pages', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    page.setDefaultTimeout(20_000);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    for (const path of [REPORTS_PATH, TASKS_PATH]) {
      await goClientSide(page, path);
      expect(await horizontalOverflow(page), path).toEqual([]);
    }
    await context.close();
  }, 90_000);
});
