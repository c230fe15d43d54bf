import type { NoticeListRequest, NoticeView, Page, WireLanguage } from '@coldchain/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { NoticeState, notices } from './notices.table';

export async function countUnreadNotices(db: Queryable, companyId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notices)
    .where(
      and(
        eq(notices.companyId, companyId),
        eq(notices.userId, userId),
        eq(notices.state, NoticeState.Unread),
      ),
    );
  return Number(row?.n ?? 0);
}

export interface NewNotice {
  companyId: number;
  userId: number;
  kind: string;
  title: { cn: string; en: string };
  content: { cn: string; en: string };
}

export async function createNotice(db: Queryable, notice: NewNotice): Promise<number> {
  const [row] = await db.insert(notices).values(notice).returning({ id: notices.id });
  return row!.id;
}

function ownedBy(companyId: number, userId: number) {
  return and(eq(notices.companyId, companyId), eq(notices.userId, userId));
}

const NOTICE_ROW = jsonRowOf(notices, 'notices');

/**
 * The caller's own notices in the company in scope, newest first, in the reader's language; one
 * statement (db/page-query.ts).
 */
export async function listNotices(
  db: Queryable,
  companyId: number,
  userId: number,
  input: NoticeListRequest,
  language: WireLanguage,
): Promise<Page<NoticeView>> {
  const where = and(
    ownedBy(companyId, userId),
    whenGiven(input.state, 'smallint', (v) => sql`${notices.state} = ${v}`),
  );
  return pageOf(
    db,
    { row: NOTICE_ROW, from: notices, where, orderBy: sql`${notices.createdAt} desc, ${notices.id} desc` },
    input,
    (raw: Record<string, unknown>) => {
      const row = decodeJsonRow(notices, raw);
      return {
        id: idToWire(row.id),
        kind: row.kind,
        title: row.title[language],
        content: row.content[language],
        state: row.state,
        createTime: row.createdAt.getTime(),
      };
    },
  );
}

/** One of the caller's notices; someone else's id is "not found", like an id that does not exist. */
export async function requireOwnNotice(db: Queryable, companyId: number, userId: number, wireId: string) {
  const id = idFromWire(wireId);
  const [row] =
    id === null
      ? []
      : await db
          .select()
          .from(notices)
          .where(and(eq(notices.id, id), ownedBy(companyId, userId)))
          .limit(1);
  if (!row) throw new AppError('NOTICE_NOT_FOUND');
  return row;
}

/** Marks one notice read; resolved and invalid notices keep their state. */
export async function readNotice(tx: Queryable, companyId: number, userId: number, wireId: string) {
  const row = await requireOwnNotice(tx, companyId, userId, wireId);
  if (row.state !== NoticeState.Unread) return false;
  await tx.update(notices).set({ state: NoticeState.Read }).where(eq(notices.id, row.id));
  return true;
}

/** Marks every unread notice of the caller in the company read; returns how many changed. */
export async function readAllNotices(tx: Queryable, companyId: number, userId: number): Promise<number> {
  const changed = await tx
    .update(notices)
    .set({ state: NoticeState.Read })
    .where(and(ownedBy(companyId, userId), eq(notices.state, NoticeState.Unread)))
    .returning({ id: notices.id });
  return changed.length;
}

export async function deleteNotice(tx: Queryable, companyId: number, userId: number, wireId: string) {
  const row = await requireOwnNotice(tx, companyId, userId, wireId);
  await tx.delete(notices).where(eq(notices.id, row.id));
  return row;
}
