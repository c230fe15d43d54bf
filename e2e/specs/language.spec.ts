import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';

describe('language', () => {
  const browser = useBrowser();

  it('switches to Simplified Chinese, remembers it in a cookie and local storage, and switches back', async () => {
    const { context, page } = await newPage(browser);
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    expect(await page.getByTestId('page-title').textContent()).toContain('Home');

    await switchLanguage(page, 'zh-CN');
    await page.getByTestId('sidebar').getByText('首页', { exact: true }).waitFor();
    expect(await page.getByTestId('page-title').textContent()).toContain('首页');
    expect(await page.getByTestId('sidebar').getByText('设备管理', { exact: true }).count()).toBeGreaterThan(
      0,
    );
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('zh-CN');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'language')?.value).toBe('zh-CN');

    // Server messages follow the language too.
    await page.reload();
    await page.getByTestId('sidebar').getByText('首页', { exact: true }).waitFor();

    await switchLanguage(page, 'en');
    await page.getByTestId('sidebar').getByText('Home', { exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
    await context.close();
  });

  it('shows server errors in Chinese when Chinese is chosen on the login page', async () => {
    const { context, page } = await newPage(browser);
    await context.addCookies([{ name: 'language', value: 'zh-CN', url: browser.baseUrl }]);
    await page.goto('/login');
    await page.getByTestId('login-account').fill('demo@example.com');
    await page.getByTestId('login-password').fill('Wrong1234');
    await page.getByTestId('login-submit').click();
    await page.getByText('账号或密码错误').first().waitFor();
    await context.close();
  });
});
