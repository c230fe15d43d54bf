import type { AddFeedbackRequest } from '@coldchain/contract';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { feedback } from './feedback.table';

export async function addFeedback(
  db: Db,
  auth: Auth,
  input: AddFeedbackRequest,
  ip = '',
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(feedback)
      .values({ companyId: auth.companyId, userId: auth.userId, ...input })
      .returning({ id: feedback.id });
    // The audit trail is per company: feedback sent before joining one has no chain to go to.
    if (auth.companyId !== null) {
      await recordAudit(
        tx,
        { companyId: auth.companyId, userId: auth.userId, ip },
        { action: 'feedback.add', targetType: 'feedback', targetId: row!.id, after: input },
      );
    }
    return { id: idToWire(row!.id) };
  });
}
