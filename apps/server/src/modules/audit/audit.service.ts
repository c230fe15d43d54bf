import { and, asc, count, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { auditLog } from './audit.table';
import { type ChainedFields, entryHash, GENESIS_HASH } from './audit-chain';

/** Who acts: a signed-in user (from request.auth) or the platform itself (userId null). */
export interface Actor {
  companyId: number;
  userId: number | null;
  ip: string;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

/** Advisory-lock keys for audit chains live above this, one per company. */
const AUDIT_LOCK_BASE = 1_000_000_000_000;

/** JSON round trip: what is hashed is exactly what the jsonb column gives back. */
function plain(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/**
 * Appends an entry to the company's chain inside the caller's transaction, so the entry exists
 * if and only if the change does. A per-company advisory lock orders concurrent writers.
 */
export async function recordAudit(tx: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_BASE + actor.companyId})`);
  const [last] = await tx
    .select({ seq: auditLog.seq, hash: auditLog.hash })
    .from(auditLog)
    .where(eq(auditLog.companyId, actor.companyId))
    .orderBy(desc(auditLog.seq))
    .limit(1);
  const fields: ChainedFields = {
    companyId: actor.companyId,
    seq: (last?.seq ?? 0) + 1,
    userId: actor.userId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    before: plain(entry.before),
    after: plain(entry.after),
    reason: entry.reason ?? '',
    ip: actor.ip,
    createdAt: Date.now(),
  };
  const prevHash = last?.hash ?? GENESIS_HASH;
  await tx.insert(auditLog).values({
    ...fields,
    createdAt: new Date(fields.createdAt),
    prevHash,
    hash: entryHash(prevHash, fields),
  });
}

export interface ChainProblem {
  seq: number;
  /**
   * `edited`: the entry no longer matches its own hash; `missing`: entries before it are gone;
   * `relinked`: the entry before it was rewritten together with a new hash.
   */
  kind: 'edited' | 'missing' | 'relinked';
  detail: string;
}

/** Walks the company's chain from the start and lists every edited or missing entry (first 100). */
export async function verifyAuditChain(db: Db, companyId: number) {
  const problems: ChainProblem[] = [];
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let checked = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, companyId), gte(auditLog.seq, expectedSeq)))
      .orderBy(asc(auditLog.seq))
      .limit(1000);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.seq !== expectedSeq) {
        problems.push({
          seq: row.seq,
          kind: 'missing',
          detail: `entries ${expectedSeq}-${row.seq - 1} are missing`,
        });
      } else if (row.prevHash !== prevHash) {
        problems.push({ seq: row.seq, kind: 'relinked', detail: `entry ${row.seq - 1} was rewritten` });
      }
      const fields: ChainedFields = {
        companyId: row.companyId,
        seq: row.seq,
        userId: row.userId,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        before: row.before,
        after: row.after,
        reason: row.reason,
        ip: row.ip,
        createdAt: row.createdAt.getTime(),
      };
      if (entryHash(row.prevHash, fields) !== row.hash) {
        problems.push({ seq: row.seq, kind: 'edited', detail: 'content does not match its hash' });
      }
      prevHash = row.hash;
      expectedSeq = row.seq + 1;
      checked++;
    }
    if (problems.length >= 100) break;
  }
  return { ok: problems.length === 0, checked, problems: problems.slice(0, 100) };
}

export interface OperationLogQuery {
  pageNum: number;
  pageSize: number;
  startTime?: number;
  endTime?: number;
  action?: string;
}

export async function pageOperationLog(db: Db, companyId: number, query: OperationLogQuery) {
  const filters: SQL[] = [eq(auditLog.companyId, companyId)];
  if (query.startTime !== undefined) filters.push(gte(auditLog.createdAt, new Date(query.startTime)));
  if (query.endTime !== undefined) filters.push(lte(auditLog.createdAt, new Date(query.endTime)));
  if (query.action) filters.push(eq(auditLog.action, query.action));
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.seq))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map((r) => ({
      id: idToWire(r.id),
      seq: r.seq,
      userId: r.userId === null ? null : idToWire(r.userId),
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      before: r.before,
      after: r.after,
      reason: r.reason,
      ip: r.ip,
      time: r.createdAt.getTime(),
    })),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
