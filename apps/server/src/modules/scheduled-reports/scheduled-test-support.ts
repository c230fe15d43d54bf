import type { ReceivedMail } from '../../test/smtp-sink';

/**
 * The mail sent to `address` (tests of scheduled reports): a run mails from the queue after the
 * call that made it, and other tasks' runs send theirs as the clock moves, so it is waited for.
 */
export async function mailTo(smtp: { received: ReceivedMail[] }, address: string): Promise<ReceivedMail> {
  for (let i = 0; i < 200; i++) {
    const mail = smtp.received.find((m) => m.to.includes(address));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no mail to ${address}`);
}
