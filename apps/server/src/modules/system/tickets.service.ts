import type { Db } from '../../db/client';
import { hashToken, newToken } from '../../lib/tokens';
import { accessTickets } from './tickets.table';

const TICKET_TTL_MS = 5 * 60_000;

export async function issueDataViewTicket(
  db: Db,
  userId: number,
  companyId: number,
): Promise<{ ticket: string }> {
  const ticket = newToken();
  await db.insert(accessTickets).values({
    ticketHash: hashToken(ticket),
    purpose: 'dataView',
    userId,
    companyId,
    expiresAt: new Date(Date.now() + TICKET_TTL_MS),
  });
  return { ticket };
}
