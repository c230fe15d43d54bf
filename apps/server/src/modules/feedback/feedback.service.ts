import type { AddFeedbackRequest } from '@coldchain/contract';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { feedback } from './feedback.table';

export async function addFeedback(db: Db, auth: Auth, input: AddFeedbackRequest): Promise<{ id: string }> {
  const [row] = await db
    .insert(feedback)
    .values({ companyId: auth.companyId, userId: auth.userId, ...input })
    .returning({ id: feedback.id });
  return { id: idToWire(row!.id) };
}
