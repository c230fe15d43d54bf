import type { LoginLogEntry, PageLoginLogRequest } from '@coldchain/contract';
import { and, count, desc, eq, gte, ilike, inArray, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { companyMembers } from '../companies/companies.table';
import { users } from '../users/users.table';
import { loginLog } from './audit.table';

export interface LoginAttempt {
  account: string;
  userId: number | null;
  companyId: number | null;
  platform: number;
  method: 'password' | 'code' | 'addressCode' | 'qr';
  success: boolean;
  reason?: string;
  ip: string;
}

/** Every attempt is kept, failures too: they are what an auditor looks for. */
export async function recordLoginAttempt(db: Db, attempt: LoginAttempt): Promise<void> {
  await db.insert(loginLog).values({
    account: attempt.account,
    userId: attempt.userId,
    companyId: attempt.companyId,
    platform: attempt.platform,
    method: attempt.method,
    status: attempt.success ? 1 : 0,
    reason: attempt.reason ?? '',
    ip: attempt.ip,
  });
}

/**
 * A page of login attempts: `scope.userId` for one's own history, `scope.companyId` for the
 * logins of every member of the company (the audit variant).
 */
export async function pageLoginLog(
  db: Db,
  scope: { userId: number } | { companyId: number },
  query: PageLoginLogRequest,
) {
  // The audit variant shows the logins of the company's members, whichever company they then chose.
  const filters: SQL[] = [
    'userId' in scope
      ? eq(loginLog.userId, scope.userId)
      : inArray(
          loginLog.userId,
          db
            .select({ id: companyMembers.userId })
            .from(companyMembers)
            .where(eq(companyMembers.companyId, scope.companyId)),
        ),
  ];
  if (query.startTime !== undefined) filters.push(gte(loginLog.createdAt, new Date(query.startTime)));
  if (query.endTime !== undefined) filters.push(lte(loginLog.createdAt, new Date(query.endTime)));
  if (query.account)
    filters.push(ilike(loginLog.account, `%${query.account.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(loginLog).where(where);
  const rows = await db
    .select({ log: loginLog, name: users.name })
    .from(loginLog)
    .leftJoin(users, eq(users.id, loginLog.userId))
    .where(where)
    .orderBy(desc(loginLog.createdAt), desc(loginLog.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const list: LoginLogEntry[] = rows.map(({ log, name }) => ({
    id: idToWire(log.id),
    userId: log.userId === null ? null : idToWire(log.userId),
    account: log.account,
    userName: name ?? '',
    platform: log.platform,
    method: log.method,
    status: log.status,
    reason: log.reason,
    ip: log.ip,
    location: log.location,
    time: log.createdAt.getTime(),
  }));
  return { list, total: Number(total?.n ?? 0), pageNum: query.pageNum, pageSize: query.pageSize };
}
