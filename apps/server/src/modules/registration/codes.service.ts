import { createHash, randomInt } from 'node:crypto';
import {
  CODE_MAX_TRIES,
  CODE_RESEND_SECONDS,
  CODE_TTL_MINUTES,
  isEmailAccount,
  type WireLanguage,
} from '@coldchain/contract';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../notify/mailer';
import { sendMessage } from '../notify/outbox.service';
import { verificationCodes } from './codes.table';

export type CodePurpose = 'register' | 'login' | 'loginVerify' | 'reset' | 'resetTicket';

function hashCode(account: string, purpose: CodePurpose, code: string) {
  return createHash('sha256').update(`${purpose}:${account}:${code}`).digest('hex');
}

const purposeText: Record<Exclude<CodePurpose, 'resetTicket'>, Record<WireLanguage, string>> = {
  register: { en: 'registration', cn: '注册' },
  login: { en: 'login', cn: '登录' },
  loginVerify: { en: 'login verification', cn: '登录验证' },
  reset: { en: 'password recovery', cn: '找回密码' },
};

/**
 * Sends a 6-digit code for `purpose` to `account` (e-mail or SMS outbox). A new code may be asked
 * for once a minute; it expires after 10 minutes and allows 5 tries.
 */
export async function issueCode(
  db: Db,
  mailer: Mailer | null,
  account: string,
  purpose: Exclude<CodePurpose, 'resetTicket'>,
  language: WireLanguage,
): Promise<{ channel: 'email' | 'sms'; sent: boolean }> {
  const [recent] = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.account, account), eq(verificationCodes.purpose, purpose)))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const waitMs = recent ? recent.createdAt.getTime() + CODE_RESEND_SECONDS * 1000 - Date.now() : 0;
  if (waitMs > 0) throw new AppError('CODE_TOO_SOON', { seconds: Math.ceil(waitMs / 1000) });

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await storeCode(db, account, purpose, code);
  const what = purposeText[purpose][language];
  const body =
    language === 'cn'
      ? `您的${what}验证码是 ${code}，${CODE_TTL_MINUTES} 分钟内有效。如非本人操作，请忽略。`
      : `Your ${what} code is ${code}. It is valid for ${CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore this message.`;
  const channel = isEmailAccount(account) ? 'email' : 'sms';
  const sent = await sendMessage(db, mailer, {
    channel,
    recipient: account,
    subject: language === 'cn' ? `ColdChain ${what}验证码` : `ColdChain ${what} code`,
    body,
  });
  return { channel, sent };
}

/** Keeps a secret for `account` under the rules of codes: hashed, 10 minutes, 5 tries, single use. */
export async function storeCode(
  db: Db,
  account: string,
  purpose: CodePurpose,
  secret: string,
): Promise<void> {
  await db.insert(verificationCodes).values({
    account,
    purpose,
    codeHash: hashCode(account, purpose, secret),
    expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
  });
}

/** Consumes the account's latest live code if `code` matches it; every wrong try counts. */
export async function consumeCode(
  db: Db,
  account: string,
  purpose: CodePurpose,
  code: string,
): Promise<void> {
  const [latest] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.account, account),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (!latest) throw new AppError('CODE_INVALID');
  if (latest.attempts >= CODE_MAX_TRIES) throw new AppError('CODE_TOO_MANY_TRIES');
  if (latest.codeHash !== hashCode(account, purpose, code)) {
    await db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, latest.id));
    throw new AppError(latest.attempts + 1 >= CODE_MAX_TRIES ? 'CODE_TOO_MANY_TRIES' : 'CODE_INVALID');
  }
  await db.update(verificationCodes).set({ usedAt: new Date() }).where(eq(verificationCodes.id, latest.id));
}
