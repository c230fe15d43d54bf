import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Mailer } from './mailer';
import { OutboxStatus, outboxMessages } from './outbox.table';

export interface OutgoingMessage {
  companyId?: number | null;
  channel: 'email' | 'sms';
  recipient: string;
  subject?: string;
  body: string;
  /** E-mail only: files sent with it (an issued invoice's PDF); the outbox row keeps the text. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/**
 * Records a message and sends it at once when its channel has a provider. Returns whether it was
 * sent; a message without a provider stays in the outbox marked "not sent".
 */
export async function sendMessage(db: Db, mailer: Mailer | null, message: OutgoingMessage): Promise<boolean> {
  const [row] = await db
    .insert(outboxMessages)
    .values({
      companyId: message.companyId ?? null,
      channel: message.channel,
      recipient: message.recipient,
      subject: message.subject ?? '',
      body: message.body,
    })
    .returning({ id: outboxMessages.id });
  const id = row!.id;
  // SMS goes through the provider adapters of the alarms milestone; until then it stays here.
  if (message.channel !== 'email' || !mailer) {
    await db.update(outboxMessages).set({ status: OutboxStatus.NoProvider }).where(eq(outboxMessages.id, id));
    return false;
  }
  try {
    await mailer.send({
      to: message.recipient,
      subject: message.subject ?? '',
      text: message.body,
      ...(message.attachments ? { attachments: message.attachments } : {}),
    });
    await db
      .update(outboxMessages)
      .set({ status: OutboxStatus.Sent, sentAt: new Date() })
      .where(eq(outboxMessages.id, id));
    return true;
  } catch (error) {
    await db
      .update(outboxMessages)
      .set({ status: OutboxStatus.Failed, error: (error as Error).message.slice(0, 500) })
      .where(eq(outboxMessages.id, id));
    return false;
  }
}
