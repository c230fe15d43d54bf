import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudit } from '../audit/audit.service';
import { companyMembers } from '../companies/companies.table';
import type { SweepGate } from '../jobs/sweep-slots';
import type { Mailer } from '../notify/mailer';
import { sendMessage } from '../notify/outbox.service';
import { sessions, users } from '../users/users.table';
import { authChanged } from './auth-changes';
import { inactivityWarnings } from './login-security.table';

/** Spec section 9: an account is cancelled after 12 months without login, warned 30 days before. */
export const INACTIVE_DAYS = 365;
export const WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

export interface CancellationSweepResult {
  warned: number[];
  cancelled: number[];
}

/** The person's last sign of life: the last login, or the registration when never logged in. */
const lastActivity = sql<Date>`coalesce(${users.lastLoginAt}, ${users.createdAt})`;

function warningText(cancelOn: Date) {
  const day = cancelOn.toISOString().slice(0, 10);
  return {
    subject: 'ColdChain: your account will be cancelled / 您的账号即将注销',
    body:
      `You have not logged in to ColdChain for almost 12 months. Unless you log in before ${day}, ` +
      'your account will be cancelled (spec: 12 months without login). Logging in once keeps it.\n\n' +
      `您已近 12 个月未登录 ColdChain。如在 ${day} 前仍未登录，您的账号将被注销。登录一次即可保留账号。`,
  };
}

/**
 * One pass of the inactivity rule: accounts idle for 11 months get a warning (e-mail, else SMS)
 * and a warned-at record; accounts idle for 12 months whose warning is at least 30 days old are
 * disabled and their sessions end. The user row stays, so audit trails still name the person.
 */
export async function sweepInactiveAccounts(
  db: Db,
  mailer: Mailer | null,
  now = new Date(),
): Promise<CancellationSweepResult> {
  const warnBefore = new Date(now.getTime() - (INACTIVE_DAYS - WARNING_DAYS) * DAY_MS);
  const cancelBefore = new Date(now.getTime() - INACTIVE_DAYS * DAY_MS);
  const warnedLongAgo = new Date(now.getTime() - WARNING_DAYS * DAY_MS);

  // A warning counts only if it is newer than the last activity: a login since then voids it.
  const toWarn = await db
    .select({
      id: users.id,
      email: users.email,
      phone: users.phone,
      account: users.account,
      last: lastActivity,
    })
    .from(users)
    .leftJoin(inactivityWarnings, eq(inactivityWarnings.userId, users.id))
    .where(
      and(
        eq(users.disabled, false),
        lte(lastActivity, warnBefore),
        or(isNull(inactivityWarnings.warnedAt), lte(inactivityWarnings.warnedAt, lastActivity)),
      ),
    );
  const warned: number[] = [];
  for (const user of toWarn) {
    const text = warningText(new Date(now.getTime() + WARNING_DAYS * DAY_MS));
    const recipient = user.email ?? user.phone ?? user.account;
    await sendMessage(db, mailer, {
      channel: recipient.includes('@') ? 'email' : 'sms',
      recipient,
      subject: text.subject,
      body: text.body,
    });
    await db
      .insert(inactivityWarnings)
      .values({ userId: user.id, warnedAt: now })
      .onConflictDoUpdate({ target: inactivityWarnings.userId, set: { warnedAt: now, cancelledAt: null } });
    warned.push(user.id);
  }

  const toCancel = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(inactivityWarnings, eq(inactivityWarnings.userId, users.id))
    .where(
      and(
        eq(users.disabled, false),
        lte(lastActivity, cancelBefore),
        gt(inactivityWarnings.warnedAt, lastActivity),
        lte(inactivityWarnings.warnedAt, warnedLongAgo),
      ),
    );
  const cancelled: number[] = [];
  for (const { id } of toCancel) {
    await db.transaction(async (tx) => {
      await tx.update(users).set({ disabled: true }).where(eq(users.id, id));
      await tx.delete(sessions).where(eq(sessions.userId, id));
      authChanged({ userId: id });
      await tx.update(inactivityWarnings).set({ cancelledAt: now }).where(eq(inactivityWarnings.userId, id));
      const memberships = await tx
        .select({ companyId: companyMembers.companyId })
        .from(companyMembers)
        .where(eq(companyMembers.userId, id));
      for (const { companyId } of memberships) {
        await recordAudit(
          tx,
          { companyId, userId: null, ip: '' },
          {
            action: 'user.cancelInactive',
            targetType: 'user',
            targetId: id,
            reason: '12 months without login',
          },
        );
      }
    });
    cancelled.push(id);
  }
  return { warned, cancelled };
}

/** Runs the sweep now and then every `everyMs` until stopped (server.ts). */
export function startAccountCancellationSweep(
  db: Db,
  mailer: Mailer | null,
  everyMs: number,
  gate?: SweepGate,
) {
  // One instance per period (jobs/sweep-slots.ts), so a warning is never mailed twice.
  const run = async () => {
    if (gate && !(await gate('accountCancellation', everyMs))) return;
    await sweepInactiveAccounts(db, mailer).catch(() => undefined);
  };
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
