import type { ChangeOrganizeNameRequest } from '@coldchain/contract';
import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmSettings } from '../alarms/alarms.table';
import { type Actor, recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { NoticeState, notices } from '../notices/notices.table';
import { departments, devicePermissions } from '../org/org.table';
import { users } from '../users/users.table';
import { companies, companyMembers } from './companies.table';

/**
 * Spec section 3: the company administrator renames the company (its root department follows)
 * and, when given, changes its industry and location; fields not sent stay as they are.
 */
export async function renameCompany(db: Db, auth: Auth, actor: Actor, input: ChangeOrganizeNameRequest) {
  if (!auth.isAdmin) throw new AppError('COMPANY_ADMIN_ONLY');
  const { name, ...details } = input;
  const changes = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        name: companies.name,
        industry: companies.industry,
        region: companies.region,
        address: companies.address,
      })
      .from(companies)
      .where(eq(companies.id, actor.companyId));
    await tx
      .update(companies)
      .set({ name, ...changes })
      .where(eq(companies.id, actor.companyId));
    await tx
      .update(departments)
      .set({ name })
      .where(and(eq(departments.companyId, actor.companyId), isNull(departments.parentId)));
    const touched = ['name', ...Object.keys(changes)] as (keyof NonNullable<typeof before>)[];
    await recordAudit(tx, actor, {
      // A rename alone keeps its own entry; anything more is an edit of the company's information.
      action: touched.length > 1 ? 'company.edit' : 'company.rename',
      targetType: 'company',
      targetId: actor.companyId,
      before: Object.fromEntries(touched.map((k) => [k, before?.[k]])),
      after: { name, ...changes },
    });
  });
}

/**
 * The caller leaves a company. The legal person cannot, nor the last administrator (a company
 * must keep someone who can manage it). Leaving also ends their duties there: person in charge,
 * alarm notifier, device grants, pending applications and unread notices.
 */
export async function leaveCompany(db: Db, auth: Auth, ip: string, wireCompanyId: string) {
  const companyId = idFromWire(wireCompanyId);
  await db.transaction(async (tx) => {
    const [member] = companyId
      ? await tx
          .select()
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, auth.userId)))
          .for('update')
      : [];
    if (!member || !companyId) throw new AppError('NO_PERMISSION');
    if (member.legalPerson) throw new AppError('LEAVE_LEGAL_PERSON');
    if (member.isAdmin) {
      const [others] = await tx
        .select({ n: count() })
        .from(companyMembers)
        .where(
          and(
            eq(companyMembers.companyId, companyId),
            eq(companyMembers.isAdmin, true),
            ne(companyMembers.userId, auth.userId),
          ),
        );
      if (Number(others?.n ?? 0) === 0) throw new AppError('LEAVE_LAST_ADMIN');
    }
    const userId = auth.userId;
    await tx
      .update(departments)
      .set({ leaderUserId: null })
      .where(and(eq(departments.companyId, companyId), eq(departments.leaderUserId, userId)));
    await tx
      .update(alarmSettings)
      .set({
        notifierIds: sql`array_remove(${alarmSettings.notifierIds}, ${userId}::bigint)`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(alarmSettings.companyId, companyId),
          sql`${userId}::bigint = ANY(${alarmSettings.notifierIds})`,
        ),
      );
    await tx
      .delete(devicePermissions)
      .where(and(eq(devicePermissions.companyId, companyId), eq(devicePermissions.userId, userId)));
    await tx
      .update(notices)
      .set({ state: NoticeState.Invalid })
      .where(
        and(
          eq(notices.companyId, companyId),
          eq(notices.userId, userId),
          eq(notices.state, NoticeState.Unread),
        ),
      );
    await tx
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
    authChanged({ userId });
    // The current company moves to another membership (the oldest), or none.
    const [next] = await tx
      .select({ companyId: companyMembers.companyId })
      .from(companyMembers)
      .where(eq(companyMembers.userId, userId))
      .orderBy(asc(companyMembers.joinedAt), asc(companyMembers.companyId))
      .limit(1);
    await tx
      .update(users)
      .set({ lastCompanyId: next?.companyId ?? null })
      .where(
        and(
          eq(users.id, userId),
          sql`(${users.lastCompanyId} = ${companyId} OR ${users.lastCompanyId} IS NULL)`,
        ),
      );
    await recordAudit(
      tx,
      { companyId, userId, ip },
      {
        action: 'member.leave',
        targetType: 'user',
        targetId: userId,
        before: { departmentId: member.departmentId, roleId: member.roleId, isAdmin: member.isAdmin },
      },
    );
  });
}
