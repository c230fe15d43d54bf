import type { NoticeListRequest, NoticeView, Page, WireLanguage } from '@coldchain/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
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

/** The caller's own notices in the company in scope, newest first, in the reader's language. */
export async function listNotices(
  db: Db,
  companyId: number,
  userId: number,
  input: NoticeListRequest,
  language: WireLanguage,
): Promise<Page<NoticeView>> {
  const where = and(
    ownedBy(companyId, userId),
    input.state === undefined ? undefined : eq(notices.state, input.state),
  );
  const [total] = await db.select({ n: count() }).from(notices).where(where);
  const rows = await db
    .select()
    .from(notices)
    .where(where)
    .orderBy(desc(notices.createdAt), desc(notices.id))
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize);
  return {
    list: rows.map((row) => ({
      id: idToWire(row.id),
      kind: row.kind,
      title: row.title[language],
      content: row.content[language],
      state: row.state,
      createTime: row.createdAt.getTime(),
    })),
    total: Number(total?.n ?? 0),
    pageNum: input.pageNum,
    pageSize: input.pageSize,
  };
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
