/**
 * The accounts issue's browser test: register by e-mail (the code read from the SMTP sink the e2e
 * server sends to), create a company, invite a second user, approve the application, give a role,
 * and the second user sees only the menus that role permits.
 *
 * data-testid used here (apps/web/src/pages/account, apps/web/src/pages/org):
 * - register-*: the registration form; register-send-code sends the code
 * - company-name, company-submit: /addTeam's create-company tab
 * - department-invite-<id>, invite-link: the invitation dialog on the organization page
 * - invite-register, invite-join, invite-joined: the /invite landing page
 * - join-approve-<id>: a pending application on the organization page
 * - role-add, role-name, perm-<tag>, role-submit: role management
 * - member-row-<id>, member-assign-<id>, assign-role, assign-submit: personnel management
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, useBrowser } from '../support/browser';
import { waitForMail } from '../support/mail';

const PASSWORD = 'Register123';

async function openFromSidebar(page: Page, area: string, entry: string) {
  const sidebar = page.getByTestId('sidebar');
  if (!(await sidebar.getByText(entry, { exact: true }).isVisible())) {
    await sidebar.getByText(area, { exact: true }).click();
  }
  await sidebar.getByText(entry, { exact: true }).click();
}

/** Fills the registration form for an e-mail account, with the code from the mail. */
async function registerByEmail(page: Page, email: string, name: string) {
  await page.waitForURL(/\/register/);
  await page.getByText('E-mail', { exact: true }).click();
  await page.getByTestId('register-email').fill(email);
  await page.getByTestId('register-send-code').click();
  const code = await waitForMail(email, /\b(\d{6})\b/);
  await page.getByTestId('register-code').fill(code);
  await page.getByTestId('register-name').fill(name);
  await page.getByTestId('register-password').fill(PASSWORD);
  await page.getByTestId('register-confirm').fill(PASSWORD);
  await page.getByTestId('register-submit').click();
}

async function sidebarTexts(page: Page): Promise<string[]> {
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByText('Home', { exact: true }).waitFor();
  return (await sidebar.locator('.ant-menu-title-content').allTextContents()).map((t) => t.trim());
}

describe('accounts: register, company, invitation, approval, role', () => {
  const browser = useBrowser();

  it('a second user sees only the menus of the role they were given', async () => {
    const tag = randomBytes(3).toString('hex');
    const ownerEmail = `owner-${tag}@example.com`;
    const memberEmail = `member-${tag}@example.com`;

    // 1. The owner registers by e-mail and creates a company.
    const owner = await newPage(browser);
    await owner.page.goto('/register');
    await registerByEmail(owner.page, ownerEmail, 'Owner One');
    await owner.page.waitForURL(/\/addTeam/);
    await owner.page.getByTestId('company-name').fill(`E2E Pharma ${tag}`);
    await owner.page.getByTestId('company-submit').click();
    await owner.page.waitForURL(/\/home$/);

    // 2. An invitation link to the company (its root department).
    await openFromSidebar(owner.page, 'User centre', 'Organization');
    await owner.page.waitForURL(/\/user\/organization$/);
    await owner.page.locator('[data-testid^="department-invite-"]').first().click();
    const link = await owner.page.getByTestId('invite-link').inputValue();
    expect(link).toMatch(/\/invite\?id=[\w-]{20,}$/);

    // 3. The second person opens it, registers from there and comes back to apply.
    const member = await newPage(browser);
    await member.page.goto(link);
    await member.page.getByTestId('invite-register').click();
    await registerByEmail(member.page, memberEmail, 'Member Two');
    await member.page.waitForURL(/\/invite\?id=/);
    await member.page.getByTestId('invite-join').click();
    await expect
      .poll(() => member.page.getByTestId('invite-joined').textContent())
      .toContain('Application sent');

    // 4. The owner approves the application.
    await owner.page.reload();
    const approve = owner.page.locator('[data-testid^="join-approve-"]').first();
    await approve.waitFor();
    await approve.click();
    await owner.page.locator('[data-testid^="join-approve-"]').first().waitFor({ state: 'detached' });

    // Approved but without a role: the home page only.
    await member.page.goto('/home');
    await member.page.waitForURL(/\/home$/);
    const beforeRole = await sidebarTexts(member.page);
    expect(beforeRole).not.toContain('Device management');
    expect(beforeRole).not.toContain('Alarm management');

    // 5. A role that may view monitors and alarm records, nothing else.
    await openFromSidebar(owner.page, 'User centre', 'Role management');
    await owner.page.getByTestId('role-add').click();
    await owner.page.getByTestId('role-name').fill('Fridge viewer');
    await owner.page.getByTestId('perm-device:view').click();
    await owner.page.getByTestId('perm-alarm:view').click();
    await owner.page.getByTestId('role-submit').click();
    await owner.page.getByText('Fridge viewer', { exact: true }).waitFor();

    // 6. Given to the second person in personnel management.
    await openFromSidebar(owner.page, 'User centre', 'Personnel management');
    const row = owner.page.locator('[data-testid^="member-row-"]').filter({ hasText: 'Member Two' });
    await row.locator('[data-testid^="member-assign-"]').click();
    await owner.page.getByTestId('assign-role').click();
    await owner.page.locator('.ant-select-item-option').filter({ hasText: 'Fridge viewer' }).click();
    await owner.page.getByTestId('assign-submit').click();
    await expect.poll(() => row.textContent()).toContain('Fridge viewer');

    // 7. The second person now sees monitors and alarm records, and nothing of the organisation.
    await member.page.reload();
    await member.page.getByTestId('sidebar').getByText('Device management', { exact: true }).waitFor();
    const menus = await sidebarTexts(member.page);
    expect(menus).toEqual(expect.arrayContaining(['Home', 'Device management', 'Alarm management']));
    expect(menus).not.toContain('Organization');
    expect(menus).not.toContain('Role management');
    expect(menus).not.toContain('Audit trail');
    await openFromSidebar(member.page, 'Alarm management', 'Alarm records');
    await member.page.waitForURL(/\/alarm\/alarmInfo$/);
    expect(
      await member.page.getByTestId('sidebar').getByText('Alarm settings', { exact: true }).count(),
    ).toBe(0);

    await owner.context.close();
    await member.context.close();
  });
});
