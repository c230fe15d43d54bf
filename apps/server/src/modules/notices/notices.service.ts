import { and, count, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
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
