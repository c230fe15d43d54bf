import type { Page } from 'playwright-core';

/**
 * A console call made from inside the page, with the signed-in member's token and company as the
 * console sends them; the envelope's `data`, or an error naming the call and the server's message.
 * For set-up and checks a spec need not click through (a shipment's detail, a spare logger).
 */
export function consoleCall<T>(page: Page, url: string, body: unknown): Promise<T> {
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
      const envelope = await response.json();
      if (envelope.msgCode !== 200) throw new Error(`${url}: ${envelope.msgContent}`);
      return envelope.data;
    },
    { url, body },
  ) as Promise<T>;
}
