import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/*
 * Checks one console screen can make of itself in the browser (issue 20): nothing wider than
 * the window, no i18n key or English enum value on a Chinese screen, no serious accessibility
 * fault. Each returns what it found, so a failure names the page and the offender.
 */

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, injected through the DevTools protocol (the console's CSP allows no inline script). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Collects what the page writes to the console as an error, and scripts that throw, each with
 * the path it happened on: a working page raises none (issue 20).
 */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  const where = () => new URL(page.url()).pathname;
  page.on('console', (message) => {
    if (message.type() !== 'error' || endedStream(message.location().url, message.text())) return;
    errors.push(`${where()}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${where()}: uncaught: ${error.message}`));
  return errors;
}

/**
 * The live player's stream, ended on purpose: hls.js gives the video element a `blob:` address for
 * its media source and revokes it when the player closes. A player closed right after it opened
 * (a quick navigation on a loaded machine) leaves Chromium's pending load of that address to fail,
 * which it reports as an error of a resource; no page code ran into anything (a clean-clone run
 * of cameras.spec).
 */
function endedStream(url: string, text: string): boolean {
  return url.startsWith('blob:') && text.includes('ERR_FILE_NOT_FOUND');
}

/** Changes the route in the page, as the sidebar does, and waits for the router to take it. */
export async function pushRoute(page: Page, url: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await page.waitForURL((u) => u.pathname === url.split('?')[0]);
}

/**
 * Client-side navigation, as a click on the sidebar does (one load of the app for all pages),
 * then waits until the page has drawn its content and ended its transitions.
 */
export async function goClientSide(page: Page, url: string): Promise<void> {
  await pushRoute(page, url);
  await page.getByTestId('page-title').first().waitFor({ timeout: 30_000 });
  // Lists and charts fill in after the title: wait for antd's spinners to go. A best effort, not
  // a check (a page may keep a spinner), so it stays short and its timeout is ignored.
  await page
    .waitForFunction(
      () => document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active').length === 0,
      null,
      {
        timeout: 15_000,
      },
    )
    .catch(() => undefined);
  // The pointer rests where the last click left it: over a link of the new page, the link's hover
  // colour (or its fade) is what axe would measure. The top-left corner holds the logo only.
  await page.mouse.move(0, 0);
  // Then let colour transitions end (the sidebar's newly selected entry fades in): axe measures
  // contrast mid-fade otherwise. Endless animations (spinners, pulses) are not waited for.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
}

/** Elements sticking out past the window's right edge, when the page scrolls sideways. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className).split(' ').slice(0, 2).join('.')} (right ${Math.round(el.getBoundingClientRect().right)})`;
    const wide = Array.from(document.querySelectorAll('body *')).filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > root.clientWidth + 1;
    });
    return [
      `page ${root.scrollWidth} px wide in a ${root.clientWidth} px window`,
      ...wide.slice(0, 5).map(describe),
    ];
  });
}

/**
 * Tab bars whose tabs do not all fit, so some hide behind antd's "more" menu: a tab a laptop's
 * user cannot see, and a button inside the tab list that axe reports (aria-required-children).
 * Which fonts the machine has decides how wide a label is, so this is checked by itself and
 * not left to axe (a clean clone with other fonts hid two of the personal centre's tabs).
 */
export async function hiddenTabs(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.ant-tabs-nav-operations:not(.ant-tabs-nav-operations-hidden)'))
      .filter((more) => more.getBoundingClientRect().width > 0)
      .map((more) => {
        const labels = Array.from(more.closest('.ant-tabs-nav')?.querySelectorAll('.ant-tabs-tab') ?? []);
        return `tabs hidden behind "more": ${labels.map((tab) => tab.textContent).join(' | ')}`;
      }),
  );
}

/**
 * Text on screen that is an i18n key (`alarms.column.open`: a string missing from the catalogue
 * renders as its key) or, on a Chinese screen, an enum value or English default the catalogue
 * should have translated (`mains`, `overLimit`, "Temperature 1", "Offline").
 */
export async function untranslatedText(page: Page, englishWords: readonly string[]): Promise<string[]> {
  return page.evaluate((words) => {
    const found = new Set<string>();
    const key = /^[a-z][A-Za-z]+(\.[A-Za-z0-9_]+)+$/;
    const english = new Set(words);
    const defaultSensor = /^(Temperature|Humidity) \d+:?$/;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const element = node.parentElement;
      if (!text || !element || element.closest('script, style, [aria-hidden="true"]')) continue;
      // Domain names and e-mail addresses are data, not keys.
      if (key.test(text) && !/\.(com|org|net|io|cn|my)$/.test(text)) found.add(`key: ${text}`);
      if (english.size > 0 && (english.has(text) || defaultSensor.test(text))) found.add(`english: ${text}`);
    }
    return [...found];
  }, englishWords);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's WCAG 2.x A and AA rules on the current page; serious and critical faults only. */
export async function seriousA11yFaults(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  // The pointer may rest on what the test last clicked (a failed CI run measured an export button
  // in its hover colour, its tooltip open): move it to the logo's corner, let antd's leave delay
  // (0.1 s) pass so the hover state and tooltip start closing, then wait for the motion to end.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(250);
  await motionSettled(page);
  return page.evaluate(async () => {
    type Result = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[]; html: string; any: { message: string }[] }[];
      }[];
    };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        // The element and what axe measured (a contrast ratio and its colours), so the fault reads
        // from the test's output alone.
        targets: v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${n.any[0]?.message ?? ''}`),
      }));
  });
}

/**
 * Waits until every finite CSS animation and transition has ended. A dialog closing after a
 * download is scaled down while it leaves, and axe measures its buttons a few pixels tall
 * (a failed CI run on the expenses page); endless ones (spinners, a pulsing alarm) are ignored.
 */
export async function motionSettled(page: Page, timeoutMs = 3_000): Promise<void> {
  await page.evaluate(async (limit) => {
    const deadline = Date.now() + limit;
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    while (Date.now() < deadline) {
      const running = document
        .getAnimations()
        .filter(
          (a) =>
            a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity),
        );
      if (running.length === 0) {
        // rc-motion hides a left element on the frame after its animation ends.
        await frame();
        await frame();
        if (
          document
            .getAnimations()
            .every(
              (a) =>
                a.playState !== 'running' ||
                !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity),
            )
        )
          return;
        continue;
      }
      await Promise.race([
        Promise.all(running.map((a) => a.finished.catch(() => undefined))),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
      ]);
    }
  }, timeoutMs);
}
