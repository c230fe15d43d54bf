import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, useBrowser } from '../support/browser';

describe('mobile layout below 992 px', () => {
  const browser = useBrowser();

  it('hides the sidebar, opens it as an overlay, and closes it on navigation and on a click outside', async () => {
    const { context, page } = await newPage(browser, { width: 800, height: 900 });
    await loginAsDemo(page);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('page-title').waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);

    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('sidebar').waitFor({ state: 'visible' });
    await page.getByTestId('sidebar').getByText('Alarm management', { exact: true }).click();
    await page.getByTestId('sidebar').getByText('Alarm records', { exact: true }).click();
    await page.waitForURL(/\/alarm\/alarmInfo$/);
    await page.getByTestId('sidebar').waitFor({ state: 'hidden' });

    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('sidebar').waitFor({ state: 'visible' });
    await page.getByTestId('sidebar-mask').click({ position: { x: 780, y: 450 } });
    await page.getByTestId('sidebar').waitFor({ state: 'hidden' });
    await context.close();
  });
});
