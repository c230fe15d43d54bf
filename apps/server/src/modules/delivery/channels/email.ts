import type { Mailer } from '../../notify/mailer';
import { type ChannelAdapter, ProviderError } from './channel';

/**
 * E-mail through the platform's mailer (SMTP_URL); the Message-ID is the idempotency key.
 *
 * A send that outlives the timeout is cancelled, not abandoned: the abort closes the SMTP
 * connection, so a transaction still waiting before its final dot (the server slow to answer
 * RCPT, DATA or the body) is dropped by the server and the retry is the only copy. Only a server
 * that has the whole message and has not answered yet when the connection closes may still
 * deliver it; the retry then carries the same Message-ID (docs/decisions.md).
 */
export function emailChannel(mailer: Mailer | null, timeoutMs: number): ChannelAdapter {
  return {
    channel: 'email',
    configured: mailer !== null,
    address: (r) => (r.email?.includes('@') ? r.email : null),
    send: async (message) => {
      const messageId = `<${message.idempotencyKey}@coldchain.alarm>`;
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        await mailer!.send({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
          messageId,
          signal,
        });
      } catch (error) {
        if (signal.aborted)
          throw new ProviderError(`SMTP timed out after ${timeoutMs} ms (connection closed)`);
        const e = error as Error & { responseCode?: number };
        // SMTP 5xx (mailbox unknown, rejected) will not get better; 4xx and network errors may.
        throw new ProviderError(`SMTP: ${e.message}`, (e.responseCode ?? 0) >= 500);
      }
      return messageId;
    },
  };
}
