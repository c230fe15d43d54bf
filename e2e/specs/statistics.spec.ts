/**
 * The statistics page (issue 15 item 5) against the demo: every chart draws from the demo's week,
 * a chart saves as a real PNG (SVG painted onto a canvas in Chromium), a chart's figures export as
 * xlsx through the server, and the page fits 390 and 1366 px, in English and Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/statistics): statistics-<chart> (card),
 * statistics-<chart>-canvas, statistics-<chart>-png, statistics-<chart>-xlsx, statistics-preset.
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

const PATH = '/dataCenter/statistics';
const PNG_MAGIC = '89504e470d0a1a0a';

describe('statistics', () => {
  const browser = useBrowser();

  it('draws the demo week, saves a chart as PNG and its figures as xlsx, at 1366 and 390 px', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    await loginAsDemo(page);
    await page.waitForURL(/\/home/);
    await goClientSide(page, PATH);
    for (const chart of ['alarmsByType', 'availability', 'notifications']) {
      await page
        .getByTestId(`statistics-${chart}-canvas`)
        .locator('svg')
        .first()
        .waitFor({ timeout: 20_000 });
    }

    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('statistics-alarmsByType-png').click(),
    ]);
    expect(png.suggestedFilename()).toBe('alarmsByType.png');
    const pngBytes = await readDownload(png);
    expect(pngBytes.subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
    expect(pngBytes.length).toBeGreaterThan(2_000);

    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('statistics-availability-xlsx').click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/^statistics-availability-\d{8}-\d{8}\.xlsx$/);
    expect((await readDownload(xlsx)).subarray(0, 2).toString()).toBe('PK');

    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await seriousA11yFaults(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('statistics-preset').getByText('Last 30 days').click();
    await page.getByTestId('statistics-alarmsByType-canvas').locator('svg').first().waitFor();
    // The pointer rests where it clicked: its tooltip, while it fades, may stand past the edge.
    await page.mouse.move(1, 1);
    await page.waitForFunction(
      () => document.querySelectorAll('.ant-tooltip:not(.ant-tooltip-hidden)').length === 0,
    );
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads in Simplified Chinese', async () => {
    const { context, page } = await newPage(browser);
    await context.addCookies([{ name: 'language', value: 'zh-CN', url: browser.baseUrl }]);
    await loginAsDemo(page);
    await page.waitForURL(/\/home/);
    await goClientSide(page, PATH);
    await page.getByText('报警趋势').waitFor();
    await page
      .getByTestId('statistics-availability-canvas')
      .locator('svg')
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('page-title').textContent()).toBe('统计分析');
    expect(await untranslatedText(page, ['Offline', 'Delivered', 'Last 7 days', 'overLimit'])).toEqual([]);
    await context.close();
  });
});

async function readDownload(download: import('playwright-core').Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
