import { describe, expect, it } from 'vitest';
import { DEMO, loginAsDemo, newPage, useBrowser } from '../support/browser';

describe('login and the console layout', () => {
  const browser = useBrowser();

  it('sends a visitor to /login with a redirect, and the demo login reaches /home with the layout', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirect') ?? '')).toBe('/home');

    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('page-title').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toContain('Home');

    const sidebar = page.getByTestId('sidebar');
    expect((await sidebar.boundingBox())?.width).toBe(240);
    for (const item of [
      'Home',
      'Monitoring',
      'Device management',
      'Alarm management',
      'User centre',
      'Audit trail',
    ]) {
      expect(
        await page.getByTestId('sidebar').getByText(item, { exact: true }).count(),
        item,
      ).toBeGreaterThan(0);
    }
    expect(await page.getByTestId('user-menu').textContent()).toContain(DEMO.name);
    expect(await page.getByTestId('company-select').textContent()).toContain(DEMO.company);
    expect(await page.getByTestId('breadcrumb').textContent()).toContain('Home');
    for (const id of [
      'sidebar-toggle',
      'fullscreen-toggle',
      'feedback-open',
      'data-screen',
      'notice-bell',
      'help-link',
    ]) {
      expect(await page.getByTestId(id).isVisible(), id).toBe(true);
    }
    await context.close();
  });

  it('shows the server message when the password is wrong and stays on /login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('login-account').fill(DEMO.account);
    await page.getByTestId('login-password').fill('Wrong1234');
    await page.getByTestId('login-submit').click();
    await page.getByText('Account or password is incorrect').first().waitFor();
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('opens a menu page, highlights the parent of a hidden detail page, and logs out to /login with a redirect', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('sidebar').getByText('Device management', { exact: true }).click();
    await page.getByTestId('sidebar').getByText('Monitors', { exact: true }).click();
    await page.waitForURL(/\/deviceManagement\/monitoringDevice$/);
    expect(await page.getByTestId('page-title').textContent()).toContain('Monitors');
    expect(await page.getByTestId('breadcrumb').textContent()).toContain('Device management');

    await page.goto('/deviceManagement/monitoringDevice/monitoringDeviceDetail');
    await page.getByTestId('page-title').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toContain('Monitor detail');
    const selected = page.getByTestId('sidebar').locator('.ant-menu-item-selected');
    expect(await selected.textContent()).toContain('Monitors');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(page.url())).toContain(
      'redirect=/deviceManagement/monitoringDevice/monitoringDeviceDetail',
    );
    // The old session is gone: going back needs a login again.
    await page.goto('/home');
    await page.waitForURL(/\/login/);
    await context.close();
  });

  it('keeps the sidebar closed after a reload once it was closed', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('sidebar-toggle').click();
    await page.waitForFunction(() => localStorage.getItem('sidebarStatus') === '0');
    await page.reload();
    await page.getByTestId('page-title').waitFor();
    expect((await page.getByTestId('sidebar').boundingBox())?.width ?? 0).toBeLessThan(240);
    await page.getByTestId('sidebar-toggle').click();
    await page.waitForFunction(() => localStorage.getItem('sidebarStatus') === '1');
    await context.close();
  });

  it('sends unknown paths to /404', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.goto('/this/does/not/exist');
    await page.waitForURL(/\/404$/);
    await page.getByTestId('not-found').waitFor();
    await context.close();
  });
});
