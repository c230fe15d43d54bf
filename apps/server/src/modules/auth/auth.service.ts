import { isEmail, type LoginResult } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { dummyPasswordHash, verifyPassword } from '../../lib/password';
import { hashToken, newToken } from '../../lib/tokens';
import { recordLoginAttempt } from '../audit/login-log.service';
import { consumeCode } from '../registration/codes.service';
import { sessions, users } from '../users/users.table';

/** Accounts are stored normalised: e-mails lower-cased, mobile numbers without spaces or dashes. */
export function normaliseAccount(account: string): string {
  const trimmed = account.trim();
  return isEmail(trimmed) ? trimmed.toLowerCase() : trimmed.replace(/[\s-]/g, '');
}

export interface LoginInput {
  account: string;
  password?: string;
  code?: string;
  type: 1 | 2;
  platform: number;
  ip: string;
}

/**
 * Password (type 1) or verification-code (type 2) login. For passwords, an unknown account and a
 * wrong password get the same message and take the same time, so the answer does not tell which
 * accounts exist. Every attempt goes to the login log.
 */
export async function login(db: Db, input: LoginInput, sessionIdleMs: number): Promise<LoginResult> {
  const account = normaliseAccount(input.account);
  const [user] = await db.select().from(users).where(eq(users.account, account)).limit(1);
  const attempt = {
    account,
    userId: user?.id ?? null,
    companyId: user?.lastCompanyId ?? null,
    platform: input.platform,
    method: input.type === 2 ? ('code' as const) : ('password' as const),
    ip: input.ip,
  };
  if (input.type === 2) {
    // A code proves the account only if it exists; a wrong code counts against the code's tries.
    if (!user) {
      await recordLoginAttempt(db, { ...attempt, success: false, reason: 'unknown account' });
      throw new AppError('ACCOUNT_NOT_FOUND');
    }
    try {
      await consumeCode(db, account, 'login', input.code ?? '');
    } catch (error) {
      await recordLoginAttempt(db, { ...attempt, success: false, reason: 'wrong code' });
      throw error;
    }
  } else {
    const valid = await verifyPassword(
      input.password ?? '',
      user?.passwordHash ?? (await dummyPasswordHash()),
    );
    if (!user || !valid) {
      await recordLoginAttempt(db, {
        ...attempt,
        success: false,
        reason: user ? 'wrong password' : 'unknown account',
      });
      throw new AppError('LOGIN_FAILED');
    }
  }
  if (user.disabled) {
    await recordLoginAttempt(db, { ...attempt, success: false, reason: 'disabled' });
    throw new AppError('ACCOUNT_DISABLED');
  }
  const result = await openSession(db, user.id, input.platform, input.ip, sessionIdleMs);
  await recordLoginAttempt(db, { ...attempt, success: true });
  return result;
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
