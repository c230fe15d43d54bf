import { and, count, eq, gt, inArray, max, min } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { loginLog } from '../audit/audit.table';

/** Failures before the backoff starts; then 1 s, 2 s, 4 s ... up to the cap between attempts. */
export const FREE_FAILURES = 5;
export const MAX_BACKOFF_SECONDS = 60;
/** At this many failures within an hour the account is locked for the rest of that hour. */
export const HOURLY_FAILURE_LIMIT = 100;
const HOUR_MS = 3_600_000;

/** Reasons that count as a failed password guess (the login log's `reason`). */
export const GUESS_REASONS = ['wrong password', 'unknown account'] as const;

export interface FailureWindow {
  count: number;
  first: Date | null;
  last: Date | null;
}

/**
 * Failed password guesses on `account` in the last hour since its last successful login. The
 * account string is counted whether or not it exists, so the backoff does not tell them apart.
 */
export async function recentFailures(db: Db, account: string, now = new Date()): Promise<FailureWindow> {
  const since = new Date(now.getTime() - HOUR_MS);
  const [lastSuccess] = await db
    .select({ at: max(loginLog.createdAt) })
    .from(loginLog)
    .where(and(eq(loginLog.account, account), eq(loginLog.status, 1), gt(loginLog.createdAt, since)));
  const from = lastSuccess?.at && lastSuccess.at > since ? lastSuccess.at : since;
  const [row] = await db
    .select({ n: count(), first: min(loginLog.createdAt), last: max(loginLog.createdAt) })
    .from(loginLog)
    .where(
      and(
        eq(loginLog.account, account),
        eq(loginLog.status, 0),
        inArray(loginLog.reason, [...GUESS_REASONS]),
        gt(loginLog.createdAt, from),
      ),
    );
  return { count: Number(row?.n ?? 0), first: row?.first ?? null, last: row?.last ?? null };
}

/** Seconds that must pass after the last failure before the next attempt is considered. */
export function backoffSeconds(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - FREE_FAILURES), MAX_BACKOFF_SECONDS);
}

/** Throws LOGIN_LOCKED or LOGIN_WAIT when `window` does not allow an attempt at `now`. */
export function assertAttemptAllowed(window: FailureWindow, now = new Date()): void {
  if (window.count >= HOURLY_FAILURE_LIMIT && window.first) {
    const until = window.first.getTime() + HOUR_MS;
    throw new AppError('LOGIN_LOCKED', { minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)) });
  }
  const delay = backoffSeconds(window.count);
  if (delay > 0 && window.last) {
    const waitMs = window.last.getTime() + delay * 1000 - now.getTime();
    if (waitMs > 0) throw new AppError('LOGIN_WAIT', { seconds: Math.ceil(waitMs / 1000) });
  }
}
