import type { Mailer } from '../../notify/mailer';
import { type ChannelAdapter, ProviderError } from './channel';

/** E-mail through the platform's mailer (SMTP_URL); the Message-ID is the idempotency key. */
export function emailChannel(mailer: Mailer | null, timeoutMs: number): ChannelAdapter {
  return {
    channel: 'email',
    configured: mailer !== null,
    address: (r) => (r.email?.includes('@') ? r.email : null),
    send: async (message) => {
      const messageId = `<${message.idempotencyKey}@coldchain.alarm>`;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ProviderError(`SMTP timed out after ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      try {
        await Promise.race([
          mailer!.send({ to: message.to, subject: message.subject, text: message.text, messageId }),
          timeout,
        ]);
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        const e = error as Error & { responseCode?: number };
        // SMTP 5xx (mailbox unknown, rejected) will not get better; 4xx and network errors may.
        throw new ProviderError(`SMTP: ${e.message}`, (e.responseCode ?? 0) >= 500);
      } finally {
        clearTimeout(timer);
      }
      return messageId;
    },
  };
}
