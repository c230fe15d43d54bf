import type { LoginLogEntry, PageLoginLogRequest, WireLanguage } from '@coldchain/contract';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { companyMembers } from '../companies/companies.table';
import { users } from '../users/users.table';
import { loginLog } from './audit.table';
import { locateIp, locationLabel } from './ip-location';

export interface LoginAttempt {
  account: string;
  userId: number | null;
  companyId: number | null;
  platform: number;
  method: 'password' | 'code' | 'addressCode' | 'qr' | 'ticket';
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
    location: locateIp(attempt.ip),
  });
}

/**
 * Whose logins a caller sees: `userId` for one's own history (every attempt on one's account,
 * whichever company), `companyId` for the audit variant: every attempt on the account of a
 * member of the company.
 */
export type LoginLogScope = { userId: number } | { companyId: number };

export interface LoginLogFilters {
  startTime?: number;
  endTime?: number;
  account?: string;
  status?: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereOf(db: Db, scope: LoginLogScope, query: LoginLogFilters): SQL | undefined {
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
  if (query.status !== undefined) filters.push(eq(loginLog.status, query.status));
  if (query.account) {
    const pattern = `%${escapeLike(query.account)}%`;
    filters.push(or(ilike(loginLog.account, pattern), ilike(users.name, pattern)) as SQL);
  }
  return and(...filters);
}

function toEntry(
  { log, name }: { log: typeof loginLog.$inferSelect; name: string | null },
  language: WireLanguage,
): LoginLogEntry {
  return {
    id: idToWire(log.id),
    userId: log.userId === null ? null : idToWire(log.userId),
    account: log.account,
    userName: name ?? '',
    platform: log.platform,
    method: log.method,
    status: log.status,
    reason: log.reason,
    ip: log.ip,
    location: locationLabel(log.location, language),
    time: log.createdAt.getTime(),
  };
}

function selectEntries(db: Db, where: SQL | undefined) {
  return db
    .select({ log: loginLog, name: users.name })
    .from(loginLog)
    .leftJoin(users, eq(users.id, loginLog.userId))
    .where(where)
    .orderBy(desc(loginLog.createdAt), desc(loginLog.id));
}

export async function countLoginLog(db: Db, scope: LoginLogScope, query: LoginLogFilters) {
  const [total] = await db
    .select({ n: count() })
    .from(loginLog)
    .leftJoin(users, eq(users.id, loginLog.userId))
    .where(whereOf(db, scope, query));
  return Number(total?.n ?? 0);
}

/** A page of login attempts, newest first; the location is written in the caller's language. */
export async function pageLoginLog(
  db: Db,
  scope: LoginLogScope,
  query: PageLoginLogRequest,
  language: WireLanguage = 'en',
) {
  const total = await countLoginLog(db, scope, query);
  const rows = await selectEntries(db, whereOf(db, scope, query))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map((row) => toEntry(row, language)),
    total,
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/** Every attempt of the period, newest first, at most `limit` of them (the export checks the count first). */
export async function listLoginLog(
  db: Db,
  scope: LoginLogScope,
  query: LoginLogFilters,
  language: WireLanguage,
  limit: number,
) {
  const rows = await selectEntries(db, whereOf(db, scope, query)).limit(limit);
  return rows.map((row) => toEntry(row, language));
}
