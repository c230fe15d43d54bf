import type { FeedbackView, Page, PageFeedbackRequest } from '@coldchain/contract';
import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { companies } from '../companies/companies.table';
import { feedback } from './feedback.table';

/**
 * The caller's own feedback, whichever company was in scope when it was sent: feedback goes to the
 * supplier, not to a company, and stays the sender's after they leave one. Nobody sees anyone
 * else's feedback through this call.
 */
export async function pageOwnFeedback(
  db: Db,
  auth: Auth,
  query: PageFeedbackRequest,
): Promise<Page<FeedbackView>> {
  const mine = eq(feedback.userId, auth.userId);
  const [total] = await db.select({ n: count() }).from(feedback).where(mine);
  const rows = await db
    .select({ row: feedback, companyName: companies.name })
    .from(feedback)
    .leftJoin(companies, eq(companies.id, feedback.companyId))
    .where(mine)
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map(({ row, companyName }) => ({
      id: idToWire(row.id),
      content: row.content,
      category: row.category,
      images: row.imgUrl ? row.imgUrl.split(',') : [],
      createTime: row.createdAt.getTime(),
      companyName: companyName ?? '',
    })),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
