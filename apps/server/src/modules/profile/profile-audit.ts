import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/client';
import { type AuditEntry, recordAudit } from '../audit/audit.service';

/**
 * A person's own settings belong to no company, but the audit trail is kept per company: the
 * change is written to the chain of the company in scope (the one the console works in), and
 * not at all for a user who belongs to none yet (docs/decisions.md).
 */
export async function auditSelf(
  tx: Queryable,
  request: FastifyRequest,
  entry: Omit<AuditEntry, 'targetType' | 'targetId'>,
) {
  const { companyId, userId } = request.auth;
  if (companyId === null) return;
  await recordAudit(
    tx,
    { companyId, userId, ip: request.ip ?? '' },
    { targetType: 'user', targetId: userId, ...entry },
  );
}
