import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { hashToken } from '../../lib/tokens';
import { recordLoginAttempt } from '../audit/login-log.service';
import { accessTickets } from '../system/tickets.table';
import { users } from '../users/users.table';
import { finishLogin, type LoginOutcome } from './auth.service';

/**
 * `/api/datav/redeemTicket`: a data-view ticket (`/api/datav/getEncryptionUser`) is used up by
 * the first redemption within its 5 minutes and opens a session of the user who asked for it,
 * as an address code does; every try is in the login log (method `ticket`).
 */
export async function loginWithTicket(
  db: Db,
  ticket: string,
  platform: number,
  ip: string,
  sessionIdleMs: number,
): Promise<Exclude<LoginOutcome, { kind: 'needCode' }>> {
  const [used] = await db
    .delete(accessTickets)
    .where(
      and(
        eq(accessTickets.ticketHash, hashToken(ticket)),
        eq(accessTickets.purpose, 'dataView'),
        gt(accessTickets.expiresAt, new Date()),
      ),
    )
    .returning({ userId: accessTickets.userId, companyId: accessTickets.companyId });
  const [user] = used ? await db.select().from(users).where(eq(users.id, used.userId)).limit(1) : [];
  const attempt = {
    account: user?.account ?? `ticket:${ticket.slice(0, 3)}...`,
    userId: user?.id ?? null,
    companyId: used?.companyId ?? null,
    platform,
    method: 'ticket' as const,
    ip,
    success: false,
  };
  if (!user || user.disabled) {
    await recordLoginAttempt(db, { ...attempt, reason: user ? 'disabled' : 'invalid ticket' });
    throw new AppError('DATA_VIEW_TICKET_INVALID');
  }
  return finishLogin(db, user, attempt, null, sessionIdleMs);
}
