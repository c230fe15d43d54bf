import type { ResetPasswordRequest, WireLanguage } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../../lib/password';
import { newToken } from '../../lib/tokens';
import type { Mailer } from '../notify/mailer';
import { type CodePurpose, consumeCode, issueCode, storeCode } from '../registration/codes.service';
import { sessions, users } from '../users/users.table';
import { normaliseAccount } from './auth.service';
import { authChanged } from './auth-changes';

/** The ticket between recovery steps 2 and 3 lives as long as a code. */
const TICKET_PURPOSE: CodePurpose = 'resetTicket';

async function requireUser(db: Db, account: string) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.account, account)).limit(1);
  if (!user) throw new AppError('ACCOUNT_NOT_FOUND');
  return user;
}

/** Step 1: the account exists. */
export async function verifyAccount(db: Db, rawAccount: string): Promise<{ exists: true }> {
  await requireUser(db, normaliseAccount(rawAccount));
  return { exists: true };
}

/** Sends a code for login or recovery to a registered account. */
export async function sendAccountCode(
  db: Db,
  mailer: Mailer | null,
  rawAccount: string,
  purpose: 'login' | 'reset',
  language: WireLanguage,
) {
  const account = normaliseAccount(rawAccount);
  await requireUser(db, account);
  return issueCode(db, mailer, account, purpose, language);
}

/** Step 2: a right code is exchanged for a one-time ticket that step 3 needs. */
export async function checkResetCode(db: Db, rawAccount: string, code: string): Promise<{ ticket: string }> {
  const account = normaliseAccount(rawAccount);
  await requireUser(db, account);
  await consumeCode(db, account, 'reset', code);
  const ticket = newToken();
  await storeCode(db, account, TICKET_PURPOSE, ticket);
  return { ticket };
}

/** Step 3: the new password replaces the old one and every open session ends. */
export async function resetPassword(db: Db, input: ResetPasswordRequest): Promise<void> {
  const account = normaliseAccount(input.account);
  const user = await requireUser(db, account);
  await consumeCode(db, account, TICKET_PURPOSE, input.ticket);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, user.id));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    authChanged({ userId: user.id });
  });
}
