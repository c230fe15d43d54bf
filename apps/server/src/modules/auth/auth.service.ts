import {
  isEmailAccount,
  type LoginNeedsCode,
  type LoginResult,
  PASSWORD_RENEWAL_DAYS,
  type WireLanguage,
} from '@coldchain/contract';
import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { dummyPasswordHash, verifyPassword } from '../../lib/password';
import { hashToken, newToken } from '../../lib/tokens';
import { type LoginAttempt, recordLoginAttempt } from '../audit/login-log.service';
import { companies, companyMembers } from '../companies/companies.table';
import type { Mailer } from '../notify/mailer';
import { consumeCode, issueCode } from '../registration/codes.service';
import { sessions, users } from '../users/users.table';
import { authChanged } from './auth-changes';
import { type LoginPlace, loginPlace, placeStatus, rememberPlace } from './login-places';
import { inactivityWarnings } from './login-security.table';
import { assertAttemptAllowed, recentFailures } from './login-throttle';

/** Accounts are stored normalised: e-mails lower-cased, mobile numbers without spaces or dashes. */
export function normaliseAccount(account: string): string {
  const trimmed = account.trim();
  return isEmailAccount(trimmed) ? trimmed.toLowerCase() : trimmed.replace(/[\s-]/g, '');
}

/** After this many recent failures even a right password from a known place needs a code. */
export const ABNORMAL_AFTER_FAILURES = 3;

export type SessionScope = 'full' | 'passwordChange';

export interface LoginInput {
  account: string;
  password?: string;
  code?: string;
  type: 1 | 2;
  platform: number;
  deviceId?: string;
  userAgent?: string;
  ip: string;
  language: WireLanguage;
}

/**
 * What a login ends in: a session; a session that may only change the password (renewal due,
 * msgCode 301); or, for an abnormal password login, a code sent and no session yet.
 */
export type LoginOutcome =
  | { kind: 'session'; result: LoginResult }
  | { kind: 'renewPassword'; result: LoginResult }
  | ({ kind: 'needCode' } & LoginNeedsCode);

type UserRow = typeof users.$inferSelect;

/**
 * Password (type 1) or verification-code (type 2) login. For passwords, an unknown account and a
 * wrong password get the same message, the same backoff and take the same time, so the answer
 * does not tell which accounts exist. Every attempt goes to the login log.
 */
export async function login(
  db: Db,
  mailer: Mailer | null,
  input: LoginInput,
  sessionIdleMs: number,
): Promise<LoginOutcome> {
  const account = normaliseAccount(input.account);
  const [user] = await db.select().from(users).where(eq(users.account, account)).limit(1);
  const attempt: LoginAttempt = {
    account,
    userId: user?.id ?? null,
    companyId: user?.lastCompanyId ?? null,
    platform: input.platform,
    method: input.type === 2 ? 'code' : 'password',
    ip: input.ip,
    success: false,
  };
  const fail = (reason: string) => recordLoginAttempt(db, { ...attempt, reason });
  const place = loginPlace(input.deviceId, input.userAgent, input.ip);

  if (input.type === 2) {
    // A code proves the account only if it exists; a wrong code counts against the code's tries.
    if (!user) {
      await fail('unknown account');
      throw new AppError('ACCOUNT_NOT_FOUND');
    }
    try {
      await consumeCode(db, account, 'login', input.code ?? '');
    } catch (error) {
      await fail('wrong code');
      throw error;
    }
    await assertEnabled(db, user, fail);
    return finishLogin(db, user, attempt, place, sessionIdleMs);
  }

  const failures = await recentFailures(db, account);
  try {
    assertAttemptAllowed(failures);
  } catch (error) {
    await fail('throttled');
    throw error;
  }
  const valid = await verifyPassword(input.password ?? '', user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !valid) {
    await fail(user ? 'wrong password' : 'unknown account');
    throw new AppError('LOGIN_FAILED');
  }
  await assertEnabled(db, user, fail);

  const status = await placeStatus(db, user.id, place);
  const abnormal = status === 'new' || failures.count >= ABNORMAL_AFTER_FAILURES;
  if (abnormal && !canDeliverCode(account, mailer)) {
    // Demanding a code nobody can receive would lock the person out; the log keeps the fact.
    return finishLogin(db, user, attempt, place, sessionIdleMs, 'abnormal login, no code channel');
  }
  if (abnormal) {
    if (input.code === undefined) {
      const channel = await sendLoginVerification(db, mailer, account, input.language);
      await fail('verification code required');
      return { kind: 'needCode', needCode: true, channel };
    }
    try {
      await consumeCode(db, account, 'loginVerify', input.code);
    } catch (error) {
      await fail('wrong verification code');
      throw error;
    }
  }
  return finishLogin(db, user, attempt, place, sessionIdleMs);
}

/** A disabled account is refused; one cancelled for inactivity says so (spec section 9). */
async function assertEnabled(db: Db, user: UserRow, fail: (reason: string) => Promise<void>) {
  if (!user.disabled) return;
  const [cancelled] = await db
    .select({ at: inactivityWarnings.cancelledAt })
    .from(inactivityWarnings)
    .where(and(eq(inactivityWarnings.userId, user.id), isNotNull(inactivityWarnings.cancelledAt)))
    .limit(1);
  await fail(cancelled ? 'cancelled' : 'disabled');
  throw new AppError(cancelled ? 'ACCOUNT_CANCELLED' : 'ACCOUNT_DISABLED');
}

/**
 * Whether a code can reach the account: e-mail needs SMTP; SMS stays in the outbox until the SMS
 * provider adapters exist (notify/outbox.service.ts), so mobile accounts cannot receive one yet.
 */
export function canDeliverCode(account: string, mailer: Mailer | null): boolean {
  return isEmailAccount(account) && mailer !== null;
}

/** Sends the abnormal-login code; one sent less than a minute ago is still good, so it is kept. */
async function sendLoginVerification(
  db: Db,
  mailer: Mailer | null,
  account: string,
  language: WireLanguage,
): Promise<'email' | 'sms'> {
  const channel = isEmailAccount(account) ? 'email' : 'sms';
  try {
    await issueCode(db, mailer, account, 'loginVerify', language);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'CODE_TOO_SOON')) throw error;
  }
  return channel;
}

/** True when a company of the person asks for renewal and the password is older than 90 days. */
export async function passwordRenewalDue(db: Db, user: Pick<UserRow, 'id' | 'passwordChangedAt'>) {
  const cutoff = Date.now() - PASSWORD_RENEWAL_DAYS * 86_400_000;
  if (user.passwordChangedAt.getTime() > cutoff) return false;
  const [strict] = await db
    .select({ id: companies.id })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.userId, user.id), eq(companies.passwordRenewal, true)))
    .limit(1);
  return Boolean(strict);
}

/**
 * The common end of every successful login (password, code, address code, QR): remembers the
 * place, opens a full session, or a password-change-only one when renewal is due.
 */
export async function finishLogin(
  db: Db,
  user: UserRow,
  attempt: LoginAttempt,
  place: LoginPlace | null,
  sessionIdleMs: number,
  note = '',
): Promise<Exclude<LoginOutcome, { kind: 'needCode' }>> {
  if (place) await rememberPlace(db, user.id, place);
  const renew = await passwordRenewalDue(db, user);
  const result = await openSession(
    db,
    user.id,
    attempt.platform,
    attempt.ip,
    sessionIdleMs,
    renew ? 'passwordChange' : 'full',
  );
  await recordLoginAttempt(db, {
    ...attempt,
    success: true,
    reason: [note, renew ? 'password renewal due' : ''].filter(Boolean).join('; '),
  });
  return { kind: renew ? 'renewPassword' : 'session', result };
}

export async function openSession(
  db: Db,
  userId: number,
  platform: number,
  ip: string,
  sessionIdleMs: number,
  scope: SessionScope = 'full',
): Promise<LoginResult> {
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + sessionIdleMs);
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), userId, platform, ip, expiresAt, scope });
    // A session only for the password change is not yet a login of the person.
    if (scope === 'full') await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, userId));
  });
  return { accessToken: token, expireTime: expiresAt.getTime() };
}

export async function logout(db: Db, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
  authChanged({ sessionId });
}

/** Live sessions of a user other than `keepSessionId` (null: all of them) end. */
export async function endSessions(db: Pick<Db, 'delete'>, userId: number, keepSessionId: number | null) {
  await db
    .delete(sessions)
    .where(
      keepSessionId === null
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)),
    );
  authChanged({ userId });
}
