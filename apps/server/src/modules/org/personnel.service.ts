import type {
  AssignRoleRequest,
  MemberOption,
  MemberView,
  MoveUserRequest,
  Page,
  PageUsersRequest,
} from '@coldchain/contract';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmSettings } from '../alarms/alarms.table';
import { type Actor, recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { companyMembers } from '../companies/companies.table';
import { NoticeState, notices } from '../notices/notices.table';
import { users } from '../users/users.table';
import { departments, devicePermissions, roles } from './org.table';
import { departmentInScope } from './roles.service';

/*
 * The people of a company (spec section 6, "Users can change role or department, and be
 * removed"). A caller sees and manages the members of their own department and below (the whole
 * company from the root); the rules for changing someone are in `assertMayChange`.
 */

/** Members whose department is in the caller's scope (members without one only for whole-company callers). */
function memberScope(auth: Auth): SQL {
  const company = eq(companyMembers.companyId, auth.companyId ?? -1);
  if (auth.scopePath === null) return company;
  return and(company, sql`${departments.path} LIKE ${`${auth.scopePath}%`}`)!;
}

function escapeLike(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function pageUsers(db: Db, auth: Auth, query: PageUsersRequest): Promise<Page<MemberView>> {
  const filters: (SQL | undefined)[] = [memberScope(auth)];
  if (query.departmentId) {
    const department = await departmentInScope(db, auth, query.departmentId);
    filters.push(
      query.includeChildren
        ? sql`${departments.path} LIKE ${`${department.path}%`}`
        : eq(companyMembers.departmentId, department.id),
    );
  }
  if (query.roleId) filters.push(eq(companyMembers.roleId, idFromWire(query.roleId) ?? -1));
  if (query.keyword) {
    const like = escapeLike(query.keyword);
    filters.push(or(ilike(users.name, like), ilike(users.account, like), ilike(users.phone, like)));
  }
  const where = and(...filters);
  const base = db
    .select({ n: count() })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .leftJoin(departments, eq(departments.id, companyMembers.departmentId))
    .where(where);
  const [total] = await base;
  const rows = await db
    .select({
      member: companyMembers,
      user: {
        name: users.name,
        account: users.account,
        phone: users.phone,
        email: users.email,
        lastLoginAt: users.lastLoginAt,
      },
      departmentName: departments.name,
      leaderUserId: departments.leaderUserId,
      roleName: roles.name,
    })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .leftJoin(departments, eq(departments.id, companyMembers.departmentId))
    .leftJoin(roles, eq(roles.id, companyMembers.roleId))
    .where(where)
    .orderBy(asc(companyMembers.joinedAt), asc(companyMembers.userId))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map(
      (r): MemberView => ({
        userId: idToWire(r.member.userId),
        name: r.user.name,
        account: r.user.account,
        phone: r.user.phone ?? '',
        email: r.user.email ?? '',
        departmentId: r.member.departmentId === null ? null : idToWire(r.member.departmentId),
        departmentName: r.departmentName ?? '',
        roleId: r.member.roleId === null ? null : idToWire(r.member.roleId),
        roleName: r.roleName ?? '',
        isAdmin: r.member.isAdmin,
        legalPerson: r.member.legalPerson,
        isLeader: r.leaderUserId === r.member.userId,
        joinTime: r.member.joinedAt.getTime(),
        lastLoginTime: r.user.lastLoginAt?.getTime() ?? null,
        exportExcel: r.member.exportExcel,
      }),
    ),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/** People the caller may pick (notifiers, persons in charge): every member of their scope. */
export async function memberOptions(db: Db, auth: Auth): Promise<MemberOption[]> {
  const rows = await db
    .select({ id: companyMembers.userId, name: users.name })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .leftJoin(departments, eq(departments.id, companyMembers.departmentId))
    .where(memberScope(auth))
    .orderBy(asc(users.name), asc(users.id));
  return rows.map((r) => ({ id: idToWire(r.id), name: r.name }));
}

/** A member of the caller's company in the caller's scope, with the tags of their role. */
async function memberInScope(db: Queryable, auth: Auth, wireUserId: string) {
  const userId = idFromWire(wireUserId) ?? -1;
  const [row] = await db
    .select({
      member: companyMembers,
      name: users.name,
      departmentPath: departments.path,
      roleTags: roles.tags,
    })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .leftJoin(departments, eq(departments.id, companyMembers.departmentId))
    .leftJoin(roles, eq(roles.id, companyMembers.roleId))
    .where(and(eq(companyMembers.companyId, auth.companyId ?? -1), eq(companyMembers.userId, userId)));
  if (!row) throw new AppError('MEMBER_NOT_FOUND');
  const inScope = auth.scopePath === null || (row.departmentPath ?? '').startsWith(auth.scopePath);
  if (!inScope) throw new AppError('NO_PERMISSION');
  return row;
}

/**
 * Nobody changes themselves or the company administrator, and nobody changes a person who holds
 * a tag they do not hold (else a lower manager could demote a higher one).
 */
function assertMayChange(auth: Auth, target: Awaited<ReturnType<typeof memberInScope>>) {
  if (target.member.userId === auth.userId) throw new AppError('MEMBER_SELF');
  if (target.member.isAdmin) throw new AppError('MEMBER_IS_COMPANY_ADMIN');
  if (!auth.isAdmin && (target.roleTags ?? []).some((t) => !auth.authTags.has(t))) {
    throw new AppError('MEMBER_ABOVE_CALLER');
  }
}

/** A role of the given department that the caller may give (its tags within the caller's). */
async function givableRole(db: Queryable, auth: Auth, wireRoleId: string, departmentId: number | null) {
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, idFromWire(wireRoleId) ?? -1), eq(roles.companyId, auth.companyId ?? -1)));
  if (!role) throw new AppError('ROLE_NOT_FOUND');
  if (role.departmentId !== departmentId) throw new AppError('ROLE_NOT_OF_DEPARTMENT');
  if (!auth.isAdmin && role.tags.some((t) => !auth.authTags.has(t))) throw new AppError('ROLE_ABOVE_CALLER');
  return role;
}

/** A person in charge of a department must stay in it: moving or removing them waits for a transfer. */
async function assertNotLeader(db: Queryable, companyId: number, userId: number, name: string) {
  const [led] = await db
    .select({ name: departments.name })
    .from(departments)
    .where(and(eq(departments.companyId, companyId), eq(departments.leaderUserId, userId)));
  if (led) throw new AppError('MEMBER_IS_LEADER', { name, department: led.name });
}

export async function assignRole(db: Db, auth: Auth, actor: Actor, input: AssignRoleRequest) {
  await db.transaction(async (tx) => {
    const target = await memberInScope(tx, auth, input.userId);
    assertMayChange(auth, target);
    const role = await givableRole(tx, auth, input.roleId, target.member.departmentId);
    await tx
      .update(companyMembers)
      .set({ roleId: role.id })
      .where(
        and(eq(companyMembers.companyId, actor.companyId), eq(companyMembers.userId, target.member.userId)),
      );
    authChanged({ userId: target.member.userId });
    await recordAudit(tx, actor, {
      action: 'member.assignRole',
      targetType: 'user',
      targetId: target.member.userId,
      before: { roleId: target.member.roleId },
      after: { roleId: role.id, roleName: role.name },
    });
  });
}

export async function moveUser(db: Db, auth: Auth, actor: Actor, input: MoveUserRequest) {
  await db.transaction(async (tx) => {
    const target = await memberInScope(tx, auth, input.userId);
    assertMayChange(auth, target);
    const department = await departmentInScope(tx, auth, input.departmentId);
    const role = input.roleId ? await givableRole(tx, auth, input.roleId, department.id) : null;
    if (department.id !== target.member.departmentId) {
      await assertNotLeader(tx, actor.companyId, target.member.userId, target.name);
    }
    await tx
      .update(companyMembers)
      .set({ departmentId: department.id, roleId: role?.id ?? null })
      .where(
        and(eq(companyMembers.companyId, actor.companyId), eq(companyMembers.userId, target.member.userId)),
      );
    authChanged({ userId: target.member.userId });
    await recordAudit(tx, actor, {
      action: 'member.move',
      targetType: 'user',
      targetId: target.member.userId,
      before: { departmentId: target.member.departmentId, roleId: target.member.roleId },
      after: { departmentId: department.id, roleId: role?.id ?? null },
    });
  });
}

/**
 * Takes a person out of the company: their membership, their device grants in it and their place
 * among alarm notifiers go; their account and sessions stay (the company simply is no longer theirs).
 */
export async function removeUser(db: Db, auth: Auth, actor: Actor, wireUserId: string) {
  await db.transaction(async (tx) => {
    const target = await memberInScope(tx, auth, wireUserId);
    assertMayChange(auth, target);
    if (target.member.legalPerson) throw new AppError('MEMBER_IS_LEGAL_PERSON');
    const userId = target.member.userId;
    await assertNotLeader(tx, actor.companyId, userId, target.name);
    await tx
      .delete(devicePermissions)
      .where(and(eq(devicePermissions.companyId, actor.companyId), eq(devicePermissions.userId, userId)));
    await tx
      .update(alarmSettings)
      .set({
        notifierIds: sql`array_remove(${alarmSettings.notifierIds}, ${userId}::bigint)`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(alarmSettings.companyId, actor.companyId),
          sql`${userId}::bigint = ANY(${alarmSettings.notifierIds})`,
        ),
      );
    // As when leaving (company-admin.service.ts): their unread notices of the company lapse.
    await tx
      .update(notices)
      .set({ state: NoticeState.Invalid })
      .where(
        and(
          eq(notices.companyId, actor.companyId),
          eq(notices.userId, userId),
          eq(notices.state, NoticeState.Unread),
        ),
      );
    await tx
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, actor.companyId), eq(companyMembers.userId, userId)));
    authChanged({ userId });
    // Their next login lands in another of their companies, not in this one.
    await tx
      .update(users)
      .set({ lastCompanyId: null })
      .where(and(eq(users.id, userId), eq(users.lastCompanyId, actor.companyId)));
    await recordAudit(tx, actor, {
      action: 'member.remove',
      targetType: 'user',
      targetId: userId,
      before: {
        name: target.name,
        departmentId: target.member.departmentId,
        roleId: target.member.roleId,
      },
    });
  });
}
