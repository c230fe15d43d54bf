import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { companyMembers } from '../companies/companies.table';
import { createNotice } from '../notices/notices.service';
import { companyCredits, creditLedger } from './delivery.table';

/**
 * Message credit (spec section 9): SMS 1 credit per 70 characters, a phone call, an e-mail or a
 * WhatsApp message 1 each, reminders free. A message's credit is reserved (debited) before it is
 * sent and refunded if it is finally not delivered, so two workers can never overdraw a balance.
 */
export function creditCost(channel: string, text: string, kind: 'alarm' | 'reminder' = 'alarm'): number {
  if (kind === 'reminder') return 0;
  if (channel === 'sms') return Math.max(1, Math.ceil([...text].length / 70));
  if (channel === 'wechat') return 0;
  return 1;
}

export async function grantCredit(db: Queryable, companyId: number, amount: number, note = '') {
  await db
    .insert(companyCredits)
    .values({ companyId, balance: amount })
    .onConflictDoUpdate({
      target: companyCredits.companyId,
      set: { balance: sql`${companyCredits.balance} + ${amount}`, updatedAt: new Date() },
    });
  await db.insert(creditLedger).values({ companyId, kind: 'grant', amount, note });
}

export async function creditBalance(db: Queryable, companyId: number): Promise<number> {
  const [row] = await db
    .select({ balance: companyCredits.balance })
    .from(companyCredits)
    .where(eq(companyCredits.companyId, companyId));
  return row?.balance ?? 0;
}

/**
 * Debits a notification's cost once (a retry finds its debit and pays nothing more). Returns
 * false when the balance does not cover it.
 */
export async function reserveCredit(
  db: Queryable,
  companyId: number,
  notificationId: number,
  channel: string,
  cost: number,
): Promise<boolean> {
  if (cost === 0) return true;
  return db.transaction(async (tx) => {
    const [debited] = await tx
      .select({ id: creditLedger.id })
      .from(creditLedger)
      .where(and(eq(creditLedger.notificationId, notificationId), eq(creditLedger.kind, 'debit')));
    if (debited) return true;
    const [row] = await tx
      .update(companyCredits)
      .set({ balance: sql`${companyCredits.balance} - ${cost}`, updatedAt: new Date() })
      .where(and(eq(companyCredits.companyId, companyId), sql`${companyCredits.balance} >= ${cost}`))
      .returning({ balance: companyCredits.balance });
    if (!row) return false;
    await tx
      .insert(creditLedger)
      .values({ companyId, kind: 'debit', amount: -cost, notificationId, channel });
    return true;
  });
}

/** Gives back the reserved credit of a message that was not delivered (once). */
export async function refundCredit(db: Queryable, companyId: number, notificationId: number) {
  await db.transaction(async (tx) => {
    const [debit] = await tx
      .select({ amount: creditLedger.amount, channel: creditLedger.channel })
      .from(creditLedger)
      .where(and(eq(creditLedger.notificationId, notificationId), eq(creditLedger.kind, 'debit')));
    if (!debit) return;
    const inserted = await tx
      .insert(creditLedger)
      .values({ companyId, kind: 'refund', amount: -debit.amount, notificationId, channel: debit.channel })
      .onConflictDoNothing()
      .returning({ id: creditLedger.id });
    if (inserted.length === 0) return;
    await tx
      .update(companyCredits)
      .set({ balance: sql`${companyCredits.balance} + ${-debit.amount}`, updatedAt: new Date() })
      .where(eq(companyCredits.companyId, companyId));
  });
}

const DAY_MS = 86_400_000;

/** Tells the company's administrators that credit ran out, at most once a day. */
export async function noticeNoCredit(db: Queryable, companyId: number, now = new Date()): Promise<boolean> {
  await db.insert(companyCredits).values({ companyId, balance: 0 }).onConflictDoNothing();
  const claimed = await db
    .update(companyCredits)
    .set({ lastNoCreditNoticeAt: now })
    .where(
      and(
        eq(companyCredits.companyId, companyId),
        or(
          isNull(companyCredits.lastNoCreditNoticeAt),
          lt(companyCredits.lastNoCreditNoticeAt, new Date(now.getTime() - DAY_MS)),
        ),
      ),
    )
    .returning({ companyId: companyCredits.companyId });
  if (claimed.length === 0) return false;
  const admins = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.isAdmin, true)));
  for (const { userId } of admins) {
    await createNotice(db, {
      companyId,
      userId,
      kind: 'credit',
      title: { en: 'Message credit used up', cn: '短信/电话余额不足' },
      content: {
        en: 'Alarm messages (SMS, phone calls, e-mail, WhatsApp) could not be sent because the message credit is used up. Please top up the credit.',
        cn: '由于余额不足，报警消息（短信、电话、邮件、WhatsApp）无法发送，请及时充值。',
      },
    });
  }
  return true;
}
