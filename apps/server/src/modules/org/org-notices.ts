import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { NoticeState, notices } from '../notices/notices.table';

/**
 * Notices about a department carry its id in their kind (`org:dept:<id>:<what>`), so that the
 * notices a person got as its person in charge can be found again and invalidated when they
 * hand it over (the notices table has no reference column of its own).
 */
export function departmentNoticeKind(departmentId: number, what: 'join-request'): string {
  return `org:dept:${departmentId}:${what}`;
}

/** Marks `userId`'s unread notices about the given departments invalid (spec section 4). */
export async function invalidateDepartmentNotices(
  db: Queryable,
  companyId: number,
  userId: number,
  departmentIds: number[],
): Promise<void> {
  if (departmentIds.length === 0) return;
  await db
    .update(notices)
    .set({ state: NoticeState.Invalid })
    .where(
      and(
        eq(notices.companyId, companyId),
        eq(notices.userId, userId),
        eq(notices.state, NoticeState.Unread),
        inArray(
          notices.kind,
          departmentIds.map((id) => departmentNoticeKind(id, 'join-request')),
        ),
      ),
    );
}
