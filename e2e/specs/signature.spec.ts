/**
 * Audit signature end to end (issue 22 item 6): the company administrator turns it on, sets a
 * signature password in the personal centre, and resolves one of the demo's open alarms with it.
 *
 * data-testid used here (apps/web/src/signature, apps/web/src/pages/personal-center,
 * apps/web/src/pages/alarms):
 * - audit-signature-switch: the company's switch on the organisation page (asks to confirm)
 * - sign-new, sign-confirm, sign-submit: the personal centre's signature password panel
 * - alarm-filter-state, alarm-row-<id>, alarm-resolve-state: the alarm records
 * - alarm-resolve-open, alarm-resolve-cause, alarm-resolve-sign-password, alarm-resolve-submit:
 *   the resolve form with the shared signature field
 * - alarm-detail-resolver: the resolution on the detail page
 *
 * The e2e server is shared by every spec file, so the switch is turned off again at the end.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, loginAsDemo, newPage, useBrowser } from '../support/browser';

const SIGN_PASSWORD = 'sign2026';

/** The console's own session, for the clean-up call the page would make. */
async function sessionOf(page: Page) {
  return page.evaluate(() => ({
    token: localStorage.getItem('accessToken') ?? '',
    companyId: localStorage.getItem('companyId') ?? '',
  }));
}

describe('audit signature', () => {
  const browser = useBrowser();
  let session: { token: string; companyId: string } | null = null;

  afterAll(async () => {
    if (!session) return;
    await fetch(`${browser.baseUrl}/api/company/setAuditSignature`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        platform: '1',
        language: 'en',
        accessToken: session.token,
        companyId: session.companyId,
      },
      body: JSON.stringify({ enabled: false }),
    });
  });

  it('is turned on by the administrator, and an alarm is then resolved with the signature password', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    session = await sessionOf(page);

    // Before the switch the resolve form asks for no signature.
    await page.goto('/alarm/alarmInfo');
    await page.locator('[data-testid^="alarm-row-"]').first().waitFor({ timeout: 30_000 });

    // 1. The company administrator turns audit signature on (organisation page, confirmed).
    await page.goto('/user/organization');
    const toggle = page.getByTestId('audit-signature-switch');
    await toggle.waitFor({ timeout: 30_000 });
    await expect.poll(() => toggle.isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    const popup = page.locator('.ant-popover').filter({ hasText: 'Turn on audit signature?' });
    await popup.getByRole('button', { name: /confirm/i }).click();
    await page.getByText('Audit signature turned on').waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 30_000 }).toBe('true');

    // 2. A signature password, set in the personal centre.
    await page.goto('/user/personalCenter?panel=signPassword');
    await page.getByTestId('sign-new').fill(SIGN_PASSWORD);
    await page.getByTestId('sign-confirm').fill(SIGN_PASSWORD);
    await page.getByTestId('sign-submit').click();
    await page.getByText('Signature password saved').waitFor();

    // 3. One of the demo's pending alarms (the warm fridge's over-limit alarm).
    await page.goto('/alarm/alarmInfo');
    const pending = page
      .locator('[data-testid^="alarm-row-"]')
      .filter({ has: page.getByTestId('alarm-resolve-state').getByText('Pending', { exact: true }) })
      .first();
    await pending.waitFor({ timeout: 30_000 });
    const alarmId = (await pending.getAttribute('data-testid'))!.replace('alarm-row-', '');
    await pending.click();
    await page.waitForURL(new RegExp(`/alarm/alarmInfo/alarmDetail\\?id=${alarmId}$`));

    await page.getByTestId('alarm-resolve-open').click();
    await page.getByTestId('alarm-resolve-cause').fill('Compressor serviced, verified by QA');
    // The shared signature field is drawn and required.
    const signField = page.getByTestId('alarm-resolve-sign-password');
    await signField.waitFor();
    await page.getByTestId('alarm-resolve-submit').click();
    await page.getByText('Enter your signature password', { exact: true }).waitFor();

    // A wrong one is refused by the server, and the alarm stays open.
    await signField.fill('wrong999');
    await page.getByTestId('alarm-resolve-submit').click();
    await page.getByText('The signature password is incorrect').first().waitFor();

    await signField.fill(SIGN_PASSWORD);
    await page.getByTestId('alarm-resolve-submit').click();
    await expect
      .poll(async () => page.getByTestId('alarm-detail-resolver').textContent(), { timeout: 30_000 })
      .toBe(DEMO.name);

    // The signature is in the operation log's entry, by name; never the password.
    const { token, companyId } = session;
    const log = await fetch(`${browser.baseUrl}/api/audit/pageOperationLog`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        platform: '1',
        language: 'en',
        accessToken: token,
        companyId,
      },
      body: JSON.stringify({ pageNum: 1, pageSize: 50, action: 'alarm.resolve' }),
    });
    const text = await log.text();
    expect(text).toContain('alarmResolution');
    expect(text).not.toContain(SIGN_PASSWORD);
    await context.close();
  });
});
