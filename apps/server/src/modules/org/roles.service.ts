import {
  type AddRoleRequest,
  AuthTags,
  type EditRoleRequest,
  type Page,
  type PageRolesRequest,
  type RoleView,
} from '@coldchain/contract';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { companyMembers } from '../companies/companies.table';
import { departmentScope } from './access';
import { departments, roles } from './org.table';

/*
 * Roles of a department (spec section 6) and the rules of who may shape them
 * (docs/decisions.md, "Roles and personnel"):
 * - the ceiling of an ordinary role of D is what D's administrator role holds; the ceiling of D's
 *   administrator role is what the administrator role of D's parent holds (every tag for the root);
 *   a caller can only grant tags they hold themselves;
 * - reducing an administrator role removes the removed tags from every role of D and below, in the
 *   same transaction; raising it raises nothing below;
 * - the root administrator role (the company administrator's) always holds every tag: not editable.
 */

type Department = { id: number; parentId: number | null; path: string };
type RoleRow = typeof roles.$inferSelect;

const knownTags: ReadonlySet<string> = new Set(AuthTags);

/** Advisory-lock keys for role changes, one per company (audit chains use 1e12 + company). */
const ROLE_LOCK_BASE = 2_000_000_000_000;

/**
 * Role changes of one company run one at a time: a ceiling is read and then relied on, so a
 * concurrent reduction must not slip between the check and the write.
 */
async function lockRoles(tx: Queryable, companyId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_LOCK_BASE + companyId})`);
}

/** A department of the caller's scope, or "no permission" (a foreign id must not reveal anything). */
export async function departmentInScope(db: Queryable, auth: Auth, wireId: string): Promise<Department> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select({ id: departments.id, parentId: departments.parentId, path: departments.path })
        .from(departments)
        .where(and(departmentScope(auth), eq(departments.id, id)))
    : [];
  if (!row) throw new AppError('NO_PERMISSION');
  return row;
}

/** The caller's own department (null for a member without one). */
async function callerDepartment(db: Queryable, auth: Auth): Promise<Department | null> {
  if (!auth.departmentId || auth.companyId === null) return null;
  const [row] = await db
    .select({ id: departments.id, parentId: departments.parentId, path: departments.path })
    .from(departments)
    .where(and(eq(departments.id, auth.departmentId), eq(departments.companyId, auth.companyId)));
  return row ?? null;
}

/** The tags of a department's administrator role (empty if it has none). */
async function adminTagsOf(db: Queryable, departmentId: number): Promise<string[]> {
  const [row] = await db
    .select({ tags: roles.tags })
    .from(roles)
    .where(and(eq(roles.departmentId, departmentId), eq(roles.isDepartmentAdmin, true)));
  return row?.tags ?? [];
}

/** What the department allows a role to hold, before the caller's own tags are applied. */
async function departmentCeiling(
  db: Queryable,
  department: Department,
  adminRole: boolean,
): Promise<string[]> {
  if (!adminRole) return adminTagsOf(db, department.id);
  if (department.parentId === null) return [...AuthTags];
  return adminTagsOf(db, department.parentId);
}

/** Keeps the contract's order, so lists read the same everywhere. */
function ordered(tags: Iterable<string>): string[] {
  const set = new Set(tags);
  return AuthTags.filter((t) => set.has(t));
}

/** The tags a role of the department may be given by this caller: `tags` for ordinary roles, `adminTags` for its administrator role. */
export async function assignableTags(db: Db, auth: Auth, departmentWireId: string) {
  const department = await departmentInScope(db, auth, departmentWireId);
  const mine = (tags: string[]) => ordered(tags.filter((t) => auth.authTags.has(t)));
  return {
    tags: mine(await departmentCeiling(db, department, false)),
    adminTags: mine(await departmentCeiling(db, department, true)),
  };
}

/**
 * Who may manage roles of a department: the company administrator everywhere; a department
 * administrator their own department's ordinary roles and every role below it; anyone else with
 * `role:edit` only the roles of departments strictly below their own. Nobody edits the role they hold.
 */
async function assertMayManage(db: Queryable, auth: Auth, department: Department, role: RoleRow | null) {
  if (role?.isDepartmentAdmin && department.parentId === null) throw new AppError('ROLE_ROOT_ADMIN_FIXED');
  if (auth.isAdmin) return;
  if (role && role.id === auth.roleId) throw new AppError('ROLE_OWN');
  const own = await callerDepartment(db, auth);
  const strictlyBelow = own !== null && department.id !== own.id && department.path.startsWith(own.path);
  if (role?.isDepartmentAdmin) {
    if (!(auth.isDepartmentAdmin && strictlyBelow)) throw new AppError('ROLE_ADMIN_OUT_OF_REACH');
    return;
  }
  const ownAsAdmin = own !== null && department.id === own.id && auth.isDepartmentAdmin;
  if (!(strictlyBelow || ownAsAdmin)) throw new AppError('ROLE_OUT_OF_REACH');
}

/**
 * Checks the requested tags: unknown ones are refused by name; tags the role did not hold yet
 * must be within the department's ceiling and held by the caller (one cannot grant what one lacks);
 * tags it already held may stay as long as the department still allows them.
 */
async function checkedTags(
  db: Queryable,
  auth: Auth,
  department: Department,
  requested: string[],
  current: RoleRow | null,
): Promise<string[]> {
  const unique = [...new Set(requested.map((t) => t.trim()).filter(Boolean))];
  const unknown = unique.find((t) => !knownTags.has(t));
  if (unknown) throw new AppError('ROLE_TAG_UNKNOWN', { tag: unknown });
  const ceiling = new Set(await departmentCeiling(db, department, current?.isDepartmentAdmin ?? false));
  const held = new Set(current?.tags ?? []);
  const refused = unique.find((t) => !ceiling.has(t) || (!held.has(t) && !auth.authTags.has(t)));
  if (refused) throw new AppError('ROLE_TAG_ABOVE_CEILING', { tag: refused });
  return ordered(unique);
}

async function assertNameFree(db: Queryable, departmentId: number, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.departmentId, departmentId),
        sql`lower(${roles.name}) = lower(${name})`,
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    );
  if (clash) throw new AppError('ROLE_NAME_TAKEN', { name });
}

/** A role of the caller's company whose department is in the caller's scope. */
async function roleInScope(db: Queryable, auth: Auth, wireId: string) {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select({
          role: roles,
          department: { id: departments.id, parentId: departments.parentId, path: departments.path },
        })
        .from(roles)
        .innerJoin(departments, eq(departments.id, roles.departmentId))
        .where(and(eq(roles.id, id), eq(roles.companyId, auth.companyId ?? -1), departmentScope(auth)))
    : [];
  if (!row) throw new AppError('ROLE_NOT_FOUND');
  return row;
}

function present(role: RoleRow, userCount: number): RoleView {
  return {
    id: idToWire(role.id),
    departmentId: idToWire(role.departmentId),
    name: role.name,
    isDepartmentAdmin: role.isDepartmentAdmin,
    userCount,
    tags: ordered(role.tags),
  };
}

/** Roles of one department, the administrator role first, with how many members hold each. */
export async function pageRoles(db: Db, auth: Auth, query: PageRolesRequest): Promise<Page<RoleView>> {
  const department = await departmentInScope(db, auth, query.departmentId);
  const where = eq(roles.departmentId, department.id);
  const [total] = await db.select({ n: count() }).from(roles).where(where);
  const userCount = sql<number>`(SELECT count(*) FROM ${companyMembers} m WHERE m.role_id = ${roles.id})`;
  const rows = await db
    .select({ role: roles, userCount })
    .from(roles)
    .where(where)
    .orderBy(desc(roles.isDepartmentAdmin), asc(roles.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map((r) => present(r.role, Number(r.userCount))),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

export async function addRole(db: Db, auth: Auth, actor: Actor, input: AddRoleRequest) {
  return db.transaction(async (tx) => {
    await lockRoles(tx, actor.companyId);
    const department = await departmentInScope(tx, auth, input.departmentId);
    await assertMayManage(tx, auth, department, null);
    const tags = await checkedTags(tx, auth, department, input.tags, null);
    await assertNameFree(tx, department.id, input.name);
    const [role] = await tx
      .insert(roles)
      .values({ companyId: actor.companyId, departmentId: department.id, name: input.name, tags })
      .returning();
    await recordAudit(tx, actor, {
      action: 'role.add',
      targetType: 'role',
      targetId: role!.id,
      after: { departmentId: department.id, name: input.name, tags },
    });
    return { id: idToWire(role!.id) };
  });
}

/**
 * Renames a role and sets its tags. When a department administrator role loses tags, every role
 * of its department and below loses them too (spec section 6); gaining tags raises nothing below.
 */
export async function editRole(db: Db, auth: Auth, actor: Actor, input: EditRoleRequest) {
  return db.transaction(async (tx) => {
    await lockRoles(tx, actor.companyId);
    const { role, department } = await roleInScope(tx, auth, input.id);
    await assertMayManage(tx, auth, department, role);
    const tags = await checkedTags(tx, auth, department, input.tags, role);
    await assertNameFree(tx, department.id, input.name, role.id);
    await tx.update(roles).set({ name: input.name, tags }).where(eq(roles.id, role.id));
    // Its holders and, when tags cascade below, the holders of roles of departments below.
    authChanged({ companyId: actor.companyId });

    const removed = role.isDepartmentAdmin ? role.tags.filter((t) => !tags.includes(t)) : [];
    const reduced: { roleId: string; removed: string[] }[] = [];
    if (removed.length > 0) {
      const below = await tx
        .select({ id: roles.id, tags: roles.tags })
        .from(roles)
        .innerJoin(departments, eq(departments.id, roles.departmentId))
        .where(
          and(
            eq(roles.companyId, actor.companyId),
            ne(roles.id, role.id),
            sql`${departments.path} LIKE ${`${department.path}%`}`,
          ),
        );
      for (const lower of below) {
        const lost = lower.tags.filter((t) => removed.includes(t));
        if (lost.length === 0) continue;
        await tx
          .update(roles)
          .set({ tags: lower.tags.filter((t) => !removed.includes(t)) })
          .where(eq(roles.id, lower.id));
        reduced.push({ roleId: idToWire(lower.id), removed: lost });
      }
    }
    await recordAudit(tx, actor, {
      action: 'role.edit',
      targetType: 'role',
      targetId: role.id,
      before: { name: role.name, tags: role.tags },
      after: { name: input.name, tags, reducedBelow: reduced },
    });
    return { id: idToWire(role.id), reducedRoles: reduced.length };
  });
}

/** Deletes an ordinary role nobody holds; administrator roles go only with their department. */
export async function deleteRole(db: Db, auth: Auth, actor: Actor, wireId: string) {
  await db.transaction(async (tx) => {
    const { role, department } = await roleInScope(tx, auth, wireId);
    if (role.isDepartmentAdmin) {
      throw new AppError(department.parentId === null ? 'ROLE_ROOT_ADMIN_FIXED' : 'ROLE_ADMIN_UNDELETABLE');
    }
    await assertMayManage(tx, auth, department, role);
    const [holders] = await tx
      .select({ n: count() })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, actor.companyId), eq(companyMembers.roleId, role.id)));
    const held = Number(holders?.n ?? 0);
    if (held > 0) throw new AppError('ROLE_IN_USE', { count: held });
    await tx.delete(roles).where(eq(roles.id, role.id));
    authChanged({ companyId: actor.companyId });
    await recordAudit(tx, actor, {
      action: 'role.delete',
      targetType: 'role',
      targetId: role.id,
      before: { departmentId: role.departmentId, name: role.name, tags: role.tags },
    });
  });
}
