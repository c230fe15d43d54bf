import { QR_TICKET_TTL_MS, type QrPollResult, type QrTicket } from '@coldchain/contract';
import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { hashToken, newToken } from '../../lib/tokens';
import { users } from '../users/users.table';
import { finishLogin } from './auth.service';
import { qrLoginTickets } from './login-security.table';

/** A new ticket for the login page's QR code; old expired tickets are cleared on the way. */
export async function createTicket(db: Db, ip: string): Promise<QrTicket> {
  const ticket = newToken();
  const expiresAt = new Date(Date.now() + QR_TICKET_TTL_MS);
  await db
    .delete(qrLoginTickets)
    .where(lt(qrLoginTickets.expiresAt, new Date(Date.now() - QR_TICKET_TTL_MS)));
  await db.insert(qrLoginTickets).values({ ticketHash: hashToken(ticket), ip, expiresAt });
  return { ticket, expireTime: expiresAt.getTime() };
}

async function liveTicket(db: Db, ticket: string) {
  const [row] = await db
    .select()
    .from(qrLoginTickets)
    .where(and(eq(qrLoginTickets.ticketHash, hashToken(ticket)), gt(qrLoginTickets.expiresAt, new Date())))
    .limit(1);
  return row;
}

/** The phone opened the confirm page: the login page shows "scanned". */
export async function scanTicket(db: Db, ticket: string): Promise<{ expireTime: number }> {
  const row = await liveTicket(db, ticket);
  if (!row || row.state === 'consumed' || row.state === 'confirmed') throw new AppError('QR_EXPIRED');
  await db.update(qrLoginTickets).set({ state: 'scanned' }).where(eq(qrLoginTickets.id, row.id));
  return { expireTime: row.expiresAt.getTime() };
}

/** The signed-in phone confirms: the next poll of the login page receives a session of this user. */
export async function confirmTicket(db: Db, ticket: string, userId: number): Promise<void> {
  const [row] = await db
    .update(qrLoginTickets)
    .set({ state: 'confirmed', userId })
    .where(
      and(
        eq(qrLoginTickets.ticketHash, hashToken(ticket)),
        gt(qrLoginTickets.expiresAt, new Date()),
        inArray(qrLoginTickets.state, ['waiting', 'scanned']),
      ),
    )
    .returning({ id: qrLoginTickets.id });
  if (!row) throw new AppError('QR_EXPIRED');
}

/**
 * The login page asks how its ticket is doing. A confirmed ticket is consumed by exactly one
 * poll (the state change is the guard), which gets the session; later polls see "expired".
 */
export async function pollTicket(
  db: Db,
  ticket: string,
  platform: number,
  sessionIdleMs: number,
): Promise<QrPollResult & { renewPassword?: boolean }> {
  const row = await liveTicket(db, ticket);
  if (!row || row.state === 'consumed') return { state: 'expired' };
  if (row.state !== 'confirmed') return { state: row.state as 'waiting' | 'scanned' };
  const [taken] = await db
    .update(qrLoginTickets)
    .set({ state: 'consumed' })
    .where(and(eq(qrLoginTickets.id, row.id), eq(qrLoginTickets.state, 'confirmed')))
    .returning({ userId: qrLoginTickets.userId });
  if (!taken?.userId) return { state: 'expired' };
  const [user] = await db.select().from(users).where(eq(users.id, taken.userId)).limit(1);
  if (!user || user.disabled) return { state: 'expired' };
  const outcome = await finishLogin(
    db,
    user,
    {
      account: user.account,
      userId: user.id,
      companyId: user.lastCompanyId,
      platform,
      method: 'qr',
      ip: row.ip,
      success: true,
    },
    null,
    sessionIdleMs,
  );
  return {
    state: 'confirmed',
    accessToken: outcome.result.accessToken,
    expireTime: outcome.result.expireTime,
    renewPassword: outcome.kind === 'renewPassword',
  };
}
