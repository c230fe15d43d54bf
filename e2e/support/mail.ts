import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { currentServer } from './server';

export interface SentMail {
  to: string[];
  raw: string;
  text: string;
}

/** Every mail the e2e server has sent so far (support/global-setup.ts writes them). */
export function sentMails(): SentMail[] {
  const dir = currentServer().mailDir;
  return readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as SentMail);
}

/** Waits for a mail to `to` whose text matches `pattern` and returns the first capture group. */
export async function waitForMail(to: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const mail of sentMails().reverse()) {
      const match = mail.to.includes(to) ? pattern.exec(mail.text) : null;
      if (match) return match[1] ?? match[0];
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
