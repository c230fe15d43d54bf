import type { MemberExportRequest } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companies, companyMembers } from '../companies/companies.table';

/**
 * Turns the company's audit signature on or off (spec sections 5 and 6). A company policy, not a
 * personal preference: a regulated company decides once that its records are signed, and no
 * member can opt out. Audited with the value before and after.
 */
export async function setAuditSignature(db: Db, actor: Actor, enabled: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ enabled: companies.signCheck })
      .from(companies)
      .where(eq(companies.id, actor.companyId))
      .for('update');
    await tx.update(companies).set({ signCheck: enabled }).where(eq(companies.id, actor.companyId));
    await recordAudit(tx, actor, {
      action: 'company.auditSignature',
      targetType: 'company',
      targetId: actor.companyId,
      before,
      after: { enabled },
    });
  });
}

/** Allows or forbids one member's exports (spec section 6 "Excel export" flag); audited. */
export async function setMemberExport(db: Db, actor: Actor, input: MemberExportRequest): Promise<void> {
  const userId = idFromWire(input.userId);
  if (userId === null) throw new AppError('NOT_FOUND');
  await db.transaction(async (tx) => {
    const member = and(eq(companyMembers.companyId, actor.companyId), eq(companyMembers.userId, userId));
    const [before] = await tx
      .select({ enabled: companyMembers.exportExcel })
      .from(companyMembers)
      .where(member)
      .for('update');
    // A foreign or unknown person is "not found" like any record outside the company.
    if (!before) throw new AppError('NOT_FOUND');
    await tx.update(companyMembers).set({ exportExcel: input.enabled }).where(member);
    await recordAudit(tx, actor, {
      action: 'member.exportExcel',
      targetType: 'user',
      targetId: userId,
      before,
      after: { enabled: input.enabled },
    });
  });
}
