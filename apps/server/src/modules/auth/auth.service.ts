import { isEmail, type LoginResult } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { dummyPasswordHash, verifyPassword } from '../../lib/password';
import { hashToken, newToken } from '../../lib/tokens';
import { sessions, users } from '../users/users.table';

/** Accounts are stored normalised: e-mails lower-cased, mobile numbers without spaces or dashes. */
export function normaliseAccount(account: string): string {
  const trimmed = account.trim();
  return isEmail(trimmed) ? trimmed.toLowerCase() : trimmed.replace(/[\s-]/g, '');
}

export interface LoginInput {
  account: string;
  password: string;
  platform: number;
  ip: string;
}

/**
 * Password login. An unknown account and a wrong password get the same message and take the same
 * time, so the answer does not tell which accounts exist.
 */
export async function loginWithPassword(
  db: Db,
  input: LoginInput,
  sessionIdleMs: number,
): Promise<LoginResult> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.account, normaliseAccount(input.account)))
    .limit(1);
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('LOGIN_FAILED');
  if (user.disabled) throw new AppError('ACCOUNT_DISABLED');
  return openSession(db, user.id, input.platform, input.ip, sessionIdleMs);
}

export async function openSession(
  db: Db,
  userId: number,
  platform: number,
  ip: string,
  sessionIdleMs: number,
): Promise<LoginResult> {
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + sessionIdleMs);
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), userId, platform, ip, expiresAt });
    await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, userId));
  });
  return { accessToken: token, expireTime: expiresAt.getTime() };
}

export async function logout(db: Db, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
