/**
 * Choosing in antd selects the way a user does, without racing the list. Several of the console's
 * selects are searched on the server (monitors, devices): typing replaces the list when the
 * answer arrives, and a click aimed at the list shown before it lands as it is replaced and
 * chooses nothing (a clean-clone run of alarms.spec waited 45 s for a select that stayed
 * disabled because of it).
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The open choice list; one fading out is no longer visible. */
export const OPEN_DROPDOWN = '.ant-select-dropdown:visible';

const OPEN_OPTIONS = '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option';

/**
 * Opens `select`, optionally types `search` into it and waits until the list shows only options
 * containing it, then clicks the first option matching `option`, and waits until the select shows
 * that option's text: a lost click fails here, with its cause in sight. A multiple select stays
 * open afterwards.
 */
export async function chooseOption(
  page: Page,
  select: Locator,
  option: string | RegExp,
  search?: string,
): Promise<void> {
  await select.click();
  if (search !== undefined) {
    await select.locator('input').fill(search);
    const shown = page.locator(OPEN_OPTIONS);
    await expect
      .poll(async () => {
        const texts = await shown.allTextContents();
        return texts.length > 0 && texts.every((text) => text.includes(search));
      })
      .toBe(true);
  }
  const target = page.locator(OPEN_OPTIONS).filter({ hasText: option }).first();
  const text = ((await target.textContent()) ?? '').trim();
  await target.click();
  await expect.poll(async () => (await select.textContent()) ?? '').toContain(text);
}
