/**
 * Data report backup and the data centre (issue 15): a daily backup task made in the console for a
 * demo monitor, run now; its e-mail arrives in the SMTP sink with the file attached; the same file
 * is downloaded from the data centre, byte for byte, and its SHA-256 is verified in the data
 * centre's "verify a printed report" box.
 *
 * data-testid used here (apps/web/src/pages/reports):
 * - task-add-open / task-name / task-devices / task-format-<format> / task-emails / task-save
 * - task-run-<id>, runs-table-<id> with run-row-<id> and run-status-<status>: the task's runs
 * - file-search, file-row-<id>, file-download-<id>; verify-sha256 / verify-submit / verify-found
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, loginAsDemo, newPage, useBrowser } from '../support/browser';
import { sentMails } from '../support/mail';
import {
  goClientSide,
  horizontalOverflow,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';
import { chooseOption } from '../support/select';

const BACKUP_PATH = '/dataCenter/dataBackup';
const FILES_PATH = '/dataCenter/dataFiles';
/** Unique per run: the e2e server may be shared with other spec files. */
const STAMP = String(Date.now()).slice(-7);
const TASK = `E2E nightly ${STAMP}`;
const ADDRESS = `backup-${STAMP}@example.com`;

interface Attachment {
  filename: string;
  bytes: Buffer;
}

/** The attachments of a raw MIME mail (base64 parts with a file name). */
function attachmentsOf(raw: string): Attachment[] {
  const found: Attachment[] = [];
  for (const part of raw.split(/\r?\n--[^\r\n]+/)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
    if (!/content-disposition:\s*attachment/i.test(headers)) continue;
    const name = /filename\*?=(?:UTF-8'')?"?([^";\r\n]+)"?/i.exec(headers)?.[1] ?? '';
    const body = part.slice(split).replace(/\s+/g, '');
    expect(headers).toMatch(/content-transfer-encoding:\s*base64/i);
    found.push({ filename: decodeURIComponent(name), bytes: Buffer.from(body, 'base64') });
  }
  return found;
}

async function mailWithAttachment(
  to: string,
  timeoutMs = 30_000,
): Promise<{ raw: string; file: Attachment }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = sentMails().find((m) => m.to.includes(to));
    if (mail) {
      const [file] = attachmentsOf(mail.raw);
      expect(file, `the mail to ${to} has an attachment`).toBeTruthy();
      return { raw: mail.raw, file: file! };
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function createDailyTask(page: Page) {
  await goClientSide(page, BACKUP_PATH);
  await page.getByTestId('task-add-open').click();
  await page.getByTestId('task-name').fill(TASK);
  // Daily is the form's default frequency; history data its default type.
  expect(await page.getByRole('radio', { name: 'Daily, 3 am' }).isChecked()).toBe(true);
  await page.getByTestId('task-format-csv').click();
  await chooseOption(page, page.getByTestId('task-devices'), 'DEMO0001', 'DEMO0001');
  await page.keyboard.press('Escape');
  const emails = page.getByTestId('task-emails').locator('input');
  await emails.fill(ADDRESS);
  await emails.press('Enter');
  await page.getByTestId('task-save').click();
  const row = page.locator('[data-testid^="task-row-"]').filter({ hasText: TASK });
  await row.waitFor();
  expect(await row.textContent()).toContain('Daily, 3 am');
  return (await row.getAttribute('data-testid'))!.replace('task-row-', '');
}

describe('data report backup and data centre', () => {
  const browser = useBrowser();

  it('creates a daily backup task, runs it now, mails the file and serves the same file in the data centre', async () => {
    const { context, page } = await newPage(browser);
    // A step that cannot happen fails with its locator named, well inside the test's time.
    page.setDefaultTimeout(20_000);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);

    const taskId = await createDailyTask(page);
    await page.getByTestId(`task-run-${taskId}`).click();
    // The task's runs open; the run is queued, then done (the list refreshes while it works).
    const runs = page.getByTestId(`runs-table-${taskId}`);
    await runs.locator('[data-testid^="run-row-"]').first().waitFor();
    await runs.getByTestId('run-status-done').waitFor({ timeout: 30_000 });
    expect(await runs.getByTestId('run-status-failed').count()).toBe(0);

    const { raw, file } = await mailWithAttachment(ADDRESS);
    expect(raw).toContain(TASK);
    expect(file.filename).toMatch(/\.csv$/);
    expect(file.bytes.toString('utf8')).toContain('DEMO0001');
    // The run lists the file it mailed.
    expect(await runs.textContent()).toContain(file.filename);
    await page.keyboard.press('Escape');

    await goClientSide(page, FILES_PATH);
    await page.getByTestId('file-search').fill(file.filename);
    const row = page.locator('[data-testid^="file-row-"]').filter({ hasText: file.filename });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.textContent()).toContain(`Backup task "${TASK}"`);
    const fileId = (await row.getAttribute('data-testid'))!.replace('file-row-', '');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId(`file-download-${fileId}`).click(),
    ]);
    expect(download.suggestedFilename()).toBe(file.filename);
    const bytes = await readFile((await download.path())!);
    expect(bytes.equals(file.bytes)).toBe(true);

    // A csv's recorded hash is its own SHA-256: the verify box finds it.
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await page.getByTestId('verify-sha256').fill(sha256.toUpperCase());
    await page.getByTestId('verify-submit').click();
    const found = page.getByTestId('verify-found');
    await found.waitFor();
    expect(await found.textContent()).toContain(file.filename);
    await context.close();
  }, 120_000);

  it('shows both pages at 1366 and 390 px, in English and Chinese, with their rows and no serious axe fault', async () => {
    for (const language of ['en', 'zh-CN'] as const) {
      const { context, page } = await newPage(browser, { width: 1366, height: 900 });
      page.setDefaultTimeout(20_000);
      await context.addCookies([{ name: 'language', value: language, url: browser.baseUrl }]);
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
      await page.goto('/login');
      await page.getByTestId('login-account').fill(DEMO.account);
      await page.getByTestId('login-password').fill(DEMO.password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL(/\/home$/);
      const problems: string[] = [];
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        for (const url of [BACKUP_PATH, FILES_PATH]) {
          await goClientSide(page, url);
          // The first test's task and file are listed (the server is one for the whole file).
          const rows = url === BACKUP_PATH ? '[data-testid^="task-row-"]' : '[data-testid^="file-row-"]';
          await page.locator(rows).first().waitFor();
          for (const found of await horizontalOverflow(page))
            problems.push(`${url} ${language} ${width}: ${found}`);
          for (const found of await untranslatedText(page, [])) problems.push(`${url} ${language}: ${found}`);
          if (language === 'en' && width === 1366)
            for (const fault of await seriousA11yFaults(page))
              problems.push(`${url}: axe ${fault.id} ${fault.help}: ${fault.targets.join(' | ')}`);
        }
      }
      // The form, on a phone.
      await goClientSide(page, BACKUP_PATH);
      await page.getByTestId('task-add-open').click();
      await page.getByTestId('task-name').waitFor();
      for (const found of await horizontalOverflow(page))
        problems.push(`task form ${language} 390: ${found}`);
      if (language === 'zh-CN')
        expect(await page.getByRole('dialog').textContent()).toContain('新增备份任务');
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
