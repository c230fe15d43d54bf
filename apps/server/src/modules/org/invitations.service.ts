import { randomBytes } from 'node:crypto';
import type { InviteInfo, InviteLink } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';
import { departmentInScope } from './departments.service';
import { applyToDepartment } from './joining.service';
import { departments, invitations } from './org.table';

/** Spec section 9: an invitation link has no use limit and expires after 24 hours. */
export const INVITE_VALIDITY_MS = 24 * 60 * 60 * 1000;

/**
 * A link to join a department. Those with `org:edit` may invite to any department of their
 * scope; a person in charge may invite to their own department.
 */
export async function createInvite(
  db: Db,
  auth: Auth,
  actor: Actor,
  departmentWireId: string,
): Promise<InviteLink> {
  const department = await departmentInScope(db, auth, departmentWireId);
  if (!auth.authTags.has('org:edit') && department.leaderUserId !== auth.userId) {
    throw new AppError('NO_PERMISSION');
  }
  // 24 random bytes: the link is the only secret between the inviter and the people they send it to.
  const code = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITE_VALIDITY_MS);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(invitations)
      .values({
        code,
        companyId: department.companyId,
        departmentId: department.id,
        createdBy: auth.userId,
        expiresAt,
      })
      .returning({ id: invitations.id });
    await recordAudit(tx, actor, {
      action: 'invitation.create',
      targetType: 'department',
      targetId: department.id,
      // The code itself stays out of the audit trail: readers of the trail could otherwise use it.
      after: { invitationId: row!.id, expiresAt: expiresAt.getTime() },
    });
    return { id: code, expireTime: expiresAt.getTime() };
  });
}

async function findInvite(db: Db, code: string) {
  const [row] = await db
    .select({
      invitation: invitations,
      companyName: companies.name,
      departmentName: departments.name,
      inviterName: users.name,
    })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .innerJoin(departments, eq(departments.id, invitations.departmentId))
    .leftJoin(users, eq(users.id, invitations.createdBy))
    .where(eq(invitations.code, code));
  return row ?? null;
}

/** What the landing page shows; an unknown or expired link is `valid: false`, never an error. */
export async function getInviteInfo(db: Db, code: string): Promise<InviteInfo> {
  const row = await findInvite(db, code);
  if (!row) return { companyName: '', departmentName: '', inviterName: '', expireTime: 0, valid: false };
  return {
    companyName: row.companyName,
    departmentName: row.departmentName,
    inviterName: row.inviterName ?? '',
    expireTime: row.invitation.expiresAt.getTime(),
    valid: row.invitation.expiresAt.getTime() > Date.now(),
  };
}

/**
 * Accepting an invitation is an application to the link's department (docs/decisions.md,
 * "Invitations need approval"): a link has no use limit for 24 hours and may be forwarded, so it
 * must not by itself let anyone into a company's cold-chain records. The person in charge
 * approves (`incomingAudit`), then gives a role; the applicant is told with spec section 4's
 * sentence.
 */
export async function joinByInvite(db: Db, userId: number, ip: string, code: string): Promise<void> {
  const row = await findInvite(db, code);
  if (!row || row.invitation.expiresAt.getTime() <= Date.now()) throw new AppError('INVITE_LINK_BROKEN');
  const [department] = await db
    .select()
    .from(departments)
    .where(eq(departments.id, row.invitation.departmentId));
  if (!department) throw new AppError('INVITE_LINK_BROKEN');
  await applyToDepartment(db, userId, ip, department, { remark: '', invitationId: row.invitation.id });
}
