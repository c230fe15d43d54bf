import type { ChainProblem, ChainVerification, OperationLogEntry } from '@coldchain/contract';
import { and, asc, count, desc, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import { beforeCommit } from '../../db/before-commit';
import type { Db, Queryable } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { users } from '../users/users.table';
import { auditHeads, auditLog } from './audit.table';
import { type ChainedFields, canonicalCut, canonicalJson, entryHash, GENESIS_HASH } from './audit-chain';

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

/** JSON round trip: what is hashed is exactly what the jsonb column gives back. */
function plain(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** An entry with every field but its place in the chain, ready to append. */
type PreparedEntry = Omit<ChainedFields, 'seq'>;

/** The chained fields of `entry` made by `actor` now. */
function fieldsOf(actor: Actor, entry: AuditEntry): PreparedEntry {
  return {
    companyId: actor.companyId,
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
}

/** Entries recorded in a transaction and appended as its last step (db/before-commit.ts). */
const recorded = new WeakMap<object, PreparedEntry[]>();

/**
 * Records an entry in the company's chain inside the caller's transaction, so the entry exists if
 * and only if the change does. In a transaction the entries are appended as its last step, after
 * every other change: the company's lock (below) is then never held while the transaction waits
 * for a row, which on PostgreSQL deadlocked an edit that took the lock early with one that held
 * a row it needed and waited for the lock. Outside a transaction the entry is appended at once.
 */
export async function recordAudit(tx: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
  const prepared = fieldsOf(actor, entry);
  const queued = recorded.get(tx);
  if (queued) {
    queued.push(prepared);
    return;
  }
  const entries = [prepared];
  const appendAtEnd = () => {
    // An entry recorded from here on (by later before-commit work) starts a batch of its own.
    recorded.delete(tx);
    return appendEntries(tx, entries);
  };
  if (beforeCommit(tx, appendAtEnd)) recorded.set(tx, entries);
  else await appendEntries(tx, entries);
}

/**
 * What an append binds, by name: the entry's fields as the statement takes them (`before` as its
 * canonical JSON text, the instant as ISO text) and its canonical JSON cut around `before` and
 * `seq` (head, middle, tail). The names are prefixed so that a statement which also makes the
 * change (`auditedChangeSql`) can bind its own beside them.
 */
interface AppendValues {
  auditCompanyId: number;
  auditUserId: number | null;
  auditAction: string;
  auditTargetType: string;
  auditTargetId: string;
  auditBefore: string;
  auditAfter: string | null;
  auditReason: string;
  auditIp: string;
  auditCreatedAt: string;
  auditHead: string;
  auditMiddle: string;
  auditTail: string;
}

function appendValuesOf(fields: PreparedEntry): AppendValues {
  const [head, middle, tail] = canonicalCut({ ...fields }, ['before', 'seq']);
  return {
    auditCompanyId: fields.companyId,
    auditUserId: fields.userId,
    auditAction: fields.action,
    auditTargetType: fields.targetType,
    auditTargetId: fields.targetId,
    auditBefore: canonicalJson(fields.before),
    auditAfter: fields.after === null ? null : JSON.stringify(fields.after),
    auditReason: fields.reason,
    auditIp: fields.ip,
    auditCreatedAt: new Date(fields.createdAt).toISOString(),
    auditHead: head!,
    auditMiddle: middle!,
    auditTail: tail!,
  };
}

/** How a statement takes each value of an append: the value itself, or its placeholder. */
type AppendSlot = (name: keyof AppendValues) => unknown;

/**
 * The append's parts, for a `with` list. `audit_link` holds the entry's `before`, the canonical
 * JSON text of its old values (`auditBefore` unless the statement reads them itself);
 * `audit_head` takes the company's head (audit_heads) for each row `when` keeps, numbers the
 * entry one past it and hashes it (SHA-256 of the previous hash and the entry's canonical JSON:
 * head, `before`, middle, `seq`, tail; see audit-chain.ts); `audit_insert` writes the entry with
 * what the head answered.
 *
 * The head is an upsert: a company's first entry inserts it, every later one updates it. The
 * chain's last entry is read as well: a head missing, or behind the chain (entries appended
 * without moving it: by an instance of a version before heads, during a rolling upgrade), goes
 * on from the last entry, so the chain never forks and a stale head heals at its next append.
 * Between sessions on PostgreSQL the read can be older than the head, never newer, and the head
 * wins then (`greatest`).
 *
 * On PostgreSQL the head's row lock is what orders concurrent appends: a statement that waited
 * for it sets the head from its newest version (`on conflict do update` reads the row as the
 * committed writer left it, not as this statement's snapshot saw it), so no append needs a lock
 * of its own taken first, and a change with its entry can be one statement outside any
 * transaction (`auditedChangeSql`). Inside a transaction the lock is held until it ends, as the
 * advisory lock this replaced was, and it is taken at the transaction's last step: rows first,
 * then the chain, the order every writer takes them in.
 */
function appendParts(slot: AppendSlot, when: SQL, before: SQL = sql`${slot('auditBefore')}::text`) {
  const companyId = sql`${slot('auditCompanyId')}::bigint`;
  const hashed = (prevHash: SQL, seq: SQL, entryBefore: SQL) =>
    sql`encode(sha256(convert_to(${prevHash} || ${slot('auditHead')}::text || ${entryBefore}
      || ${slot('auditMiddle')}::text || (${seq})::text || ${slot('auditTail')}::text, 'UTF8')), 'hex')`;
  // The chain's last entry, and whether it is ahead of the head (below): a new head starts from it.
  const lastSeq = sql`(select last_seq from audit_link)`;
  const ahead = sql`${lastSeq} > head.seq`;
  const nextSeq = sql`greatest(head.seq, ${lastSeq}) + 1`;
  const prevHash = sql`case when ${ahead} then (select last_hash from audit_link) else head.hash end`;
  const links = sql`audit_last as (
      select seq, hash from audit_log where company_id = ${companyId} order by seq desc limit 1
    ), audit_link as (
      select ${before} as before, coalesce((select seq from audit_last), 0) as last_seq,
             coalesce((select hash from audit_last), ${GENESIS_HASH}::text) as last_hash
    ), audit_head as (
      insert into audit_heads as head (company_id, seq, prev_hash, hash)
      select ${companyId}, audit_link.last_seq + 1, audit_link.last_hash,
             ${hashed(sql`audit_link.last_hash`, sql`audit_link.last_seq + 1`, sql`audit_link.before`)}
      from audit_link
      where ${when}
      on conflict (company_id) do update set seq = ${nextSeq}, prev_hash = ${prevHash},
        hash = ${hashed(prevHash, nextSeq, sql`(select before from audit_link)`)}
      returning seq, prev_hash, hash
    )`;
  // A `before` of JSON null is stored as SQL null, as a plain value's null always was.
  const insert = sql`insert into audit_log (company_id, seq, user_id, action, target_type, target_id, before,
                           after, reason, ip, created_at, prev_hash, hash)
    select ${companyId}, audit_head.seq, ${slot('auditUserId')}::bigint, ${slot('auditAction')}::text,
           ${slot('auditTargetType')}::text, ${slot('auditTargetId')}::text, nullif(audit_link.before, 'null')::jsonb,
           ${slot('auditAfter')}::jsonb, ${slot('auditReason')}::text, ${slot('auditIp')}::text,
           ${slot('auditCreatedAt')}::timestamptz, audit_head.prev_hash, audit_head.hash
    from audit_head, audit_link`;
  return { links, insert };
}

/**
 * Appends entries to their companies' chains, one statement each (`appendParts`: the head's
 * upsert and the entry's insert), all sent without waiting for the previous answers: both
 * databases run a session's statements in the order sent, so each entry is numbered after the
 * one before it. Entries of several companies go in company order, so that two transactions
 * appending to the same chains take their heads in the same order.
 */
async function appendEntries(tx: Queryable, entries: PreparedEntry[]): Promise<void> {
  const inCompanyOrder = [...entries].sort((a, b) => a.companyId - b.companyId);
  const statements = inCompanyOrder.map((entry) => {
    const values = appendValuesOf(entry);
    const { links, insert } = appendParts((name) => values[name], sql`true`);
    return Promise.resolve(tx.execute(sql`with ${links} ${insert}`));
  });
  await Promise.all(statements);
}

/** An entry of a change made in one statement (`auditedChangeSql`), with the actor who made it. */
export interface AuditedEntry extends AuditEntry {
  actor: Actor;
}

/** The parts of a statement of `auditedChangeSql`. */
export interface AuditedChange {
  /**
   * Parts of the `with` list read before the change (`name as (...)`, comma-separated): a row the
   * change starts from, locked as it is read on PostgreSQL (`for no key update`), so that a
   * statement which waited for another writer reads that writer's newest version.
   */
  reads?: SQL;
  /** The change, an update or insert `returning` its rows (named `changed` in the statement). */
  change: SQL;
  /** Further parts of the `with` list that go with the change (`name as (...)`, comma-separated). */
  alongside?: SQL;
  /** What the statement selects. */
  answer: SQL;
  /** The entry's old values as canonical JSON text, when the statement reads them itself. */
  before?: SQL;
}

/**
 * A change and its audit entry in one statement, for the hot writes (docs/performance.md,
 * "Audited writes"): the change is the statement's `changed` part (an update or insert
 * `returning` its rows; a query builder's as `.getSQL()`, which drizzle does not wrap in
 * parentheses, as it does a builder itself), the entry is appended when `changed` gave a row, and
 * `answer` is what the statement selects (usually from `changed`); `alongside`, other changes
 * that go with it in the same `with`. Every value is a placeholder:
 * the statement's text is built once (`builtSqlOnce`), the change's values and
 * `auditedValues(entry)` given at each call.
 *
 * Run on its own (not in a transaction), the statement is a transaction: the change and its
 * entry are committed together or not at all, in one round trip on either database. On
 * PostgreSQL it takes the changed rows' locks first (the answer reads `changed`, which runs
 * before the parts nothing reads) and the chain's head last, the order every audited
 * transaction takes them in, so it cannot deadlock with one (appendParts).
 *
 * `before`, when given, is the entry's old values read by the statement itself, as canonical JSON
 * text (audit-chain.ts: keys sorted, no spaces; the test of each such statement verifies the
 * chain), for a change whose old values the caller does not know before it runs; otherwise they
 * are the entry's own `before`.
 */
export function auditedChangeSql({ reads, change, alongside, answer, before }: AuditedChange): SQL {
  const { links, insert } = appendParts(sql.placeholder, sql`exists (select 1 from changed)`, before);
  const first = reads ? sql`${reads}, ` : sql``;
  const more = alongside ? sql`, ${alongside}` : sql``;
  return sql`with ${first}changed as (${change}), ${links}, audit_insert as (${insert})${more} ${answer}`;
}

/** The placeholders' values of `entry` for a statement of `auditedChangeSql`. */
export function auditedValues({ actor, ...entry }: AuditedEntry): AppendValues {
  return appendValuesOf(fieldsOf(actor, entry));
}

/** Walks the company's chain from the start and lists every edited or missing entry, a deleted tail included (first 100). */
export async function verifyAuditChain(db: Db, companyId: number): Promise<ChainVerification> {
  const problems: ChainProblem[] = [];
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let checked = 0;
  let lastTime = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, companyId), gte(auditLog.seq, expectedSeq)))
      .orderBy(asc(auditLog.seq))
      .limit(1000);
    if (rows.length === 0) break;
    for (const row of rows) {
      const time = row.createdAt.getTime();
      if (row.seq !== expectedSeq) {
        problems.push({
          seq: row.seq,
          kind: 'missing',
          detail: `entries ${expectedSeq}-${row.seq - 1} are missing`,
          time,
          missingFrom: expectedSeq,
          missingTo: row.seq - 1,
        });
      } else if (row.prevHash !== prevHash) {
        problems.push({ seq: row.seq, kind: 'relinked', detail: `entry ${row.seq - 1} was rewritten`, time });
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
        createdAt: time,
      };
      if (entryHash(row.prevHash, fields) !== row.hash) {
        problems.push({ seq: row.seq, kind: 'edited', detail: 'content does not match its hash', time });
      }
      prevHash = row.hash;
      expectedSeq = row.seq + 1;
      lastTime = time;
      checked++;
    }
    if (problems.length >= 100) break;
  }
  // Entries deleted from the chain's end leave no gap before a later entry; the head still counts
  // them. Where they went missing is shown at the head's position, with the last entry's time.
  const [head] = await db
    .select({ seq: auditHeads.seq })
    .from(auditHeads)
    .where(eq(auditHeads.companyId, companyId));
  if (head && head.seq >= expectedSeq && problems.length < 100) {
    problems.push({
      seq: head.seq,
      kind: 'missing',
      detail: `entries ${expectedSeq}-${head.seq} are missing`,
      time: lastTime,
      missingFrom: expectedSeq,
      missingTo: head.seq,
    });
  }
  return { ok: problems.length === 0, checked, problems: problems.slice(0, 100) };
}

export interface OperationLogFilters {
  startTime?: number;
  endTime?: number;
  action?: string;
  userId?: string;
  target?: string;
}

export interface OperationLogQuery extends OperationLogFilters {
  pageNum: number;
  pageSize: number;
}

function whereOf(companyId: number, query: OperationLogFilters): SQL | undefined {
  const filters: SQL[] = [eq(auditLog.companyId, companyId)];
  if (query.startTime !== undefined) filters.push(gte(auditLog.createdAt, new Date(query.startTime)));
  if (query.endTime !== undefined) filters.push(lte(auditLog.createdAt, new Date(query.endTime)));
  if (query.action) filters.push(eq(auditLog.action, query.action));
  if (query.userId) filters.push(eq(auditLog.userId, Number(query.userId)));
  if (query.target) {
    const pattern = `%${query.target.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(auditLog.targetType, pattern), ilike(auditLog.targetId, pattern)) as SQL);
  }
  return and(...filters);
}

function selectEntries(db: Db, where: SQL | undefined) {
  return db
    .select({ log: auditLog, name: users.name })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(where)
    .orderBy(desc(auditLog.seq));
}

function toEntry({
  log,
  name,
}: {
  log: typeof auditLog.$inferSelect;
  name: string | null;
}): OperationLogEntry {
  return {
    id: idToWire(log.id),
    seq: log.seq,
    userId: log.userId === null ? null : idToWire(log.userId),
    userName: name ?? '',
    action: log.action,
    targetType: log.targetType,
    targetId: log.targetId,
    before: log.before,
    after: log.after,
    reason: log.reason,
    ip: log.ip,
    time: log.createdAt.getTime(),
  };
}

export async function countOperationLog(db: Db, companyId: number, query: OperationLogFilters) {
  const [total] = await db.select({ n: count() }).from(auditLog).where(whereOf(companyId, query));
  return Number(total?.n ?? 0);
}

export async function pageOperationLog(db: Db, companyId: number, query: OperationLogQuery) {
  const total = await countOperationLog(db, companyId, query);
  const rows = await selectEntries(db, whereOf(companyId, query))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return { list: rows.map(toEntry), total, pageNum: query.pageNum, pageSize: query.pageSize };
}

/** The entries of a period, newest first, at most `limit` (the export checks the count first). */
export async function listOperationLog(
  db: Db,
  companyId: number,
  query: OperationLogFilters,
  limit: number,
): Promise<OperationLogEntry[]> {
  const rows = await selectEntries(db, whereOf(companyId, query)).limit(limit);
  return rows.map(toEntry);
}
