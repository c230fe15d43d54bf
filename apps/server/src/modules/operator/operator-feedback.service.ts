import type { OperatorFeedbackView, Page, PageOperatorFeedbackRequest } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pageOf } from '../../db/page-query';
import { idToWire } from '../../lib/ids';
import { companies } from '../companies/companies.table';
import { feedback } from '../feedback/feedback.table';
import { users } from '../users/users.table';

interface FeedbackRaw {
  id: number;
  content: string;
  category: number;
  imgUrl: string;
  createdMs: number;
  account: string;
  userName: string;
  companyName: string | null;
}

/** Feedback from every user (spec section 3 "Feedback" goes to the supplier), newest first. */
export function pageOperatorFeedback(
  db: Db,
  query: PageOperatorFeedbackRequest,
): Promise<Page<OperatorFeedbackView>> {
  return pageOf(
    db,
    {
      row: sql`json_build_object('id', ${feedback.id}, 'content', ${feedback.content},
        'category', ${feedback.category}, 'imgUrl', ${feedback.imgUrl},
        'createdMs', (extract(epoch from ${feedback.createdAt}) * 1000)::float8,
        'account', (select u.account from ${users} u where u.id = ${feedback.userId}),
        'userName', (select u.name from ${users} u where u.id = ${feedback.userId}),
        'companyName', (select c.name from ${companies} c where c.id = ${feedback.companyId}))`,
      from: feedback,
      where: undefined,
      orderBy: sql`${feedback.createdAt} desc, ${feedback.id} desc`,
    },
    query,
    (raw: FeedbackRaw) => ({
      id: idToWire(Number(raw.id)),
      content: raw.content,
      category: raw.category,
      images: raw.imgUrl ? raw.imgUrl.split(',') : [],
      createTime: Math.round(raw.createdMs),
      account: raw.account,
      userName: raw.userName,
      companyName: raw.companyName,
    }),
  );
}
