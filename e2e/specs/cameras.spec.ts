/**
 * Cameras (issue 19): the demo's direct-stream camera plays the server's looping HLS clip on its
 * detail page (the video's currentTime advances), and the open alarm of the monitor the demo's
 * ward camera watches shows the picture taken when it started. The list and detail pages at
 * 1366 and 390 px and in Simplified Chinese.
 *
 * data-testid used here (apps/web/src/pages/camera):
 * - camera-row-<id>, camera-open-<id>, camera-add; camera-video-<id>, camera-refused-<id>
 * - alarm-snapshots, alarm-snapshot-image (on the alarm detail page)
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsDemo, newPage, switchLanguage, useBrowser } from '../support/browser';
import {
  consoleErrors,
  goClientSide,
  horizontalOverflow,
  seriousA11yFaults,
  untranslatedText,
} from '../support/page-checks';

const LIST_PATH = '/deviceManagement/camera';

interface CameraRow {
  id: string;
  name: string;
  devices: { id: string }[];
}

/** A call as the console makes it, with the session the page holds. */
function consoleCall<T>(page: Page, url: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ url, body }) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          platform: '1',
          language: 'en',
          accessToken: localStorage.getItem('accessToken') ?? '',
          companyId: localStorage.getItem('companyId') ?? '',
        },
        body: JSON.stringify(body),
      });
      return (await response.json()).data;
    },
    { url, body },
  ) as Promise<T>;
}

async function demoCameras(page: Page): Promise<CameraRow[]> {
  const cameras = await consoleCall<{ list: CameraRow[] }>(page, '/api/camera/pageCameras', {
    pageNum: 1,
    pageSize: 20,
  });
  return cameras.list;
}

/** Waits until the camera's video has played on for a second of clip time. */
async function playing(page: Page, cameraId: string) {
  const video = page.getByTestId(`camera-video-${cameraId}`);
  await video.waitFor();
  await expect
    .poll(async () => video.evaluate((v: HTMLVideoElement) => v.currentTime), {
      timeout: 20_000,
      interval: 250,
    })
    .toBeGreaterThan(1);
}

describe('cameras', () => {
  const browser = useBrowser();

  it('plays the demo camera, shows the alarm picture, at 390 px and in Chinese', async () => {
    const { context, page } = await newPage(browser);
    const errors = consoleErrors(page);
    await loginAsDemo(page, LIST_PATH);
    await page.waitForURL((u) => u.pathname === LIST_PATH, { timeout: 30_000 });
    const cameras = await demoCameras(page);
    const coldRoom = cameras.find((c) => c.name === 'Cold room camera');
    const ward = cameras.find((c) => c.name === 'Ward camera');
    expect(coldRoom && ward).toBeTruthy();

    // The list, then the detail page, whose live view plays the looping clip.
    await page.getByTestId(`camera-row-${coldRoom!.id}`).waitFor({ timeout: 30_000 });
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await seriousA11yFaults(page)).toEqual([]);
    await page.getByTestId(`camera-open-${coldRoom!.id}`).click();
    await page.waitForURL(/\/deviceManagement\/camera\/cameraDetail\?id=/);
    await playing(page, coldRoom!.id);
    expect(await page.getByTestId(`camera-refused-${coldRoom!.id}`).count()).toBe(0);
    expect(await horizontalOverflow(page)).toEqual([]);

    // The ward camera watches the warm ward fridge: its open alarm carries the picture.
    const alarms = await consoleCall<{ list: { id: string }[] }>(page, '/api/alarm/pageAlarms', {
      pageNum: 1,
      pageSize: 20,
      deviceId: ward!.devices[0]!.id,
    });
    const withPicture = [];
    for (const alarm of alarms.list) {
      const shots = await consoleCall<{ state: string }[]>(page, '/api/camera/alarmSnapshots', {
        alarmId: alarm.id,
      });
      if (shots.some((s) => s.state === 'ok')) withPicture.push(alarm.id);
    }
    expect(withPicture.length).toBeGreaterThan(0);
    await goClientSide(page, `/alarm/alarmInfo/alarmDetail?id=${withPicture[0]}`);
    const image = page.getByTestId('alarm-snapshots').locator('img').first();
    await image.waitFor({ timeout: 30_000 });
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);

    // A phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await goClientSide(page, LIST_PATH);
    await page.getByTestId(`camera-row-${coldRoom!.id}`).waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await goClientSide(page, `/deviceManagement/camera/cameraDetail?id=${coldRoom!.id}`);
    await playing(page, coldRoom!.id);
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await seriousA11yFaults(page)).toEqual([]);

    // Chinese.
    await page.setViewportSize({ width: 1366, height: 900 });
    await switchLanguage(page, 'zh-CN');
    await goClientSide(page, LIST_PATH);
    await page.getByText('添加摄像头').first().waitFor();
    expect(
      await untranslatedText(page, ['Add camera', 'Online', 'Offline', 'Platform account', 'Edit', 'Delete']),
    ).toEqual([]);
    await goClientSide(page, `/deviceManagement/camera/cameraDetail?id=${coldRoom!.id}`);
    await page.getByText('直连流').first().waitFor();
    expect(await untranslatedText(page, ['Serial number', 'Direct stream', 'Watched monitors'])).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
