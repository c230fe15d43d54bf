import { SIGN_LOCK_AFTER_FAILURES, SIGN_LOCK_MINUTES } from '@coldchain/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { MessageKey } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../audit/audit.service';
import { users } from '../users/users.table';

/** The part of the signer the lock needs (see signature.service.ts). */
interface Guarded {
  userId: number;
  companyId: number | null;
  ip: string;
}

function lockedError(until: Date, now: number): AppError {
  return new AppError('SIGN_PASSWORD_LOCKED', {
    minutes: Math.max(1, Math.ceil((until.getTime() - now) / 60_000)),
  });
}

/**
 * Runs one guess at a signing secret (the signature password, or the login password when it
 * stands in for a forgotten one) under a lock against guessing: the fifth wrong guess within an
 * hour locks signing for 15 minutes and writes the lock to the company's trail (21 CFR 11.300(d):
 * attempts at unauthorised use are reported). A right guess clears the count.
 *
 * Takes the database, never a transaction: the failure must be counted although the action that
 * asked for the signature then fails.
 */
export async function guardSecret(
  db: Db,
  who: Guarded,
  state: { signLockedUntil: Date | null },
  attempt: () => Promise<boolean>,
  wrong: MessageKey,
): Promise<void> {
  const now = Date.now();
  if (state.signLockedUntil && state.signLockedUntil.getTime() > now) {
    throw lockedError(state.signLockedUntil, now);
  }
  if (await attempt()) {
    // Written only when there is a count to clear, so a normal signature costs no write.
    await db
      .update(users)
      .set({ signFailCount: 0, signFailedAt: null })
      .where(and(eq(users.id, who.userId), gt(users.signFailCount, 0)));
    return;
  }
  // One statement counts the guess, so parallel guesses cannot share a count.
  const [row] = await db
    .update(users)
    .set({
      signFailCount: sql`case when ${users.signFailedAt} > now() - interval '1 hour' then ${users.signFailCount} + 1 else 1 end`,
      signFailedAt: sql`now()`,
    })
    .where(eq(users.id, who.userId))
    .returning({ failures: users.signFailCount });
  const failures = row?.failures ?? 0;
  if (failures < SIGN_LOCK_AFTER_FAILURES) throw new AppError(wrong);

  const until = new Date(now + SIGN_LOCK_MINUTES * 60_000);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ signFailCount: 0, signFailedAt: null, signLockedUntil: until })
      .where(eq(users.id, who.userId));
    // The trail is kept per company; a user with none in scope has no trail to write to.
    if (who.companyId !== null) {
      await recordAudit(
        tx,
        { companyId: who.companyId, userId: who.userId, ip: who.ip },
        {
          action: 'user.signatureLocked',
          targetType: 'user',
          targetId: who.userId,
          after: { failures, lockedUntil: until.getTime() },
        },
      );
    }
  });
  throw lockedError(until, now);
}
