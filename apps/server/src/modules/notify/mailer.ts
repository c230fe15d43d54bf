import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (the alarm e-mail's camera picture); mail clients show one of the two. */
  html?: string;
  /** A stable Message-ID (alarm delivery uses it as the idempotency key). */
  messageId?: string;
  /**
   * Aborting closes the SMTP connection: a transaction not yet ended by its final dot is dropped by
   * the server, so a send given up on a timeout cannot still arrive beside its retry.
   */
  signal?: AbortSignal;
  /** Files sent with the mail (backup tasks, modules/report-tasks). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Sends e-mail through SMTP_URL; `null` when no SMTP server is configured. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string | undefined, from: string): Mailer | null {
  if (!smtpUrl) return null;
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    send: async (mail) => {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
        ...(mail.signal ? { signal: mail.signal } : {}),
        ...(mail.attachments ? { attachments: mail.attachments } : {}),
      });
    },
    close: () => transport.close(),
  };
}
