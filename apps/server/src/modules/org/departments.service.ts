import type {
  AddDepartmentRequest,
  DepartmentDetail,
  DepartmentNode,
  EditDepartmentRequest,
} from '@coldchain/contract';
import { and, count, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { companies, companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { users } from '../users/users.table';
import { departmentScope } from './access';
import { insertAdminRole, insertDepartment } from './company-setup';
import { departments, roles } from './org.table';

type DepartmentRow = typeof departments.$inferSelect;

/** Departments matching `where`, with member and device counts and the leader's name. */
async function loadNodes(db: Queryable, where: SQL): Promise<Omit<DepartmentNode, 'children'>[]> {
  const rows = await db
    .select({ department: departments, leaderName: users.name })
    .from(departments)
    .leftJoin(users, eq(users.id, departments.leaderUserId))
    .where(where)
    .orderBy(departments.level, departments.id);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.department.id);
  const memberCounts = await db
    .select({ id: companyMembers.departmentId, n: count() })
    .from(companyMembers)
    .where(inArray(companyMembers.departmentId, ids))
    .groupBy(companyMembers.departmentId);
  const members = new Map(memberCounts.map((r) => [r.id, Number(r.n)]));
  const deviceCounts = await deviceCountsOf(db, [...new Set(rows.map((r) => r.department.companyId))]);
  return rows.map(({ department: d, leaderName }) => ({
    id: idToWire(d.id),
    pid: d.parentId === null ? '0' : idToWire(d.parentId),
    code: d.code,
    name: d.name,
    level: d.level,
    leaderId: d.leaderUserId === null ? null : idToWire(d.leaderUserId),
    leaderName: leaderName ?? '',
    address: d.address,
    imageUrl: d.imageUrl,
    memberCount: members.get(d.id) ?? 0,
    ...deviceCounts(d),
  }));
}

/**
 * A department's own device count (what the device list filtered by it shows) and the count of
 * its whole subtree, for the root (the company itself) with the devices filed under no
 * department: what its person in charge oversees, so the organisation page agrees with the home
 * page's total (issue 20; docs/decisions.md, "Department device counts"). One grouped query.
 */
async function deviceCountsOf(db: Queryable, companyIds: number[]) {
  const byDepartment = await db
    .select({ companyId: devices.companyId, id: devices.departmentId, path: departments.path, n: count() })
    .from(devices)
    .leftJoin(departments, eq(departments.id, devices.departmentId))
    .where(inArray(devices.companyId, companyIds))
    .groupBy(devices.companyId, devices.departmentId, departments.path);
  const counted = byDepartment.map((r) => ({ ...r, n: Number(r.n) }));
  return (d: DepartmentRow) => {
    const ofCompany = counted.filter((c) => c.companyId === d.companyId);
    const inSubtree = ofCompany.filter((c) =>
      c.path === null ? d.parentId === null : c.path.startsWith(d.path),
    );
    return {
      deviceCount: ofCompany.find((c) => c.id === d.id)?.n ?? 0,
      subtreeDeviceCount: inSubtree.reduce((sum, c) => sum + c.n, 0),
    };
  };
}

/**
 * The departments the caller may see, as a tree. A member of a sub-department gets their own
 * department as the top of the tree (its `pid` is its real parent, which they cannot open).
 */
export async function listDepartmentTree(db: Db, auth: Auth): Promise<DepartmentNode[]> {
  const nodes = (await loadNodes(db, departmentScope(auth))).map((n) => ({
    ...n,
    children: [] as DepartmentNode[],
  }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const tops: DepartmentNode[] = [];
  for (const node of nodes) {
    const parent = byId.get(node.pid);
    if (parent) parent.children.push(node);
    else tops.push(node);
  }
  return tops;
}

async function detailOf(db: Queryable, auth: Auth, id: number): Promise<DepartmentDetail> {
  const [node] = await loadNodes(db, and(departmentScope(auth), eq(departments.id, id))!);
  if (!node) throw new AppError('DEPARTMENT_NOT_FOUND');
  const [parent] =
    node.pid === '0'
      ? []
      : await db
          .select({ name: departments.name })
          .from(departments)
          .where(eq(departments.id, Number(node.pid)));
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, auth.companyId ?? -1));
  return {
    ...node,
    parentName: parent?.name ?? '',
    companyName: company?.name ?? '',
    editable: auth.authTags.has('org:edit'),
  };
}

/** One department in the caller's scope; a foreign or out-of-scope id is "not found". */
export function getDepartmentDetail(db: Db, auth: Auth, wireId: string): Promise<DepartmentDetail> {
  const id = idFromWire(wireId);
  if (!id) throw new AppError('DEPARTMENT_NOT_FOUND');
  return detailOf(db, auth, id);
}

/** The caller's own department: every member may see it, with or without a role. */
export function getMyDepartment(db: Db, auth: Auth): Promise<DepartmentDetail> {
  if (!auth.departmentId) throw new AppError('DEPARTMENT_NOT_FOUND');
  // Their own department is always inside their scope, so the scope filter never hides it.
  return detailOf(db, auth, auth.departmentId);
}

/** A department of the caller's scope, for changing it; anything else is "not found". */
export async function departmentInScope(db: Queryable, auth: Auth, wireId: string): Promise<DepartmentRow> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select()
        .from(departments)
        .where(and(departmentScope(auth), eq(departments.id, id)))
    : [];
  if (!row) throw new AppError('DEPARTMENT_NOT_FOUND');
  return row;
}

/** Checks `userId` is a member of a department the caller may see. */
export async function assertMemberInScope(db: Queryable, auth: Auth, userId: number | null): Promise<number> {
  const [row] = userId
    ? await db
        .select({ userId: companyMembers.userId })
        .from(companyMembers)
        .innerJoin(departments, eq(departments.id, companyMembers.departmentId))
        .where(
          and(
            eq(companyMembers.companyId, auth.companyId ?? -1),
            eq(companyMembers.userId, userId),
            departmentScope(auth),
          ),
        )
    : [];
  if (!row) throw new AppError('DEPARTMENT_LEADER_NOT_MEMBER');
  return row.userId;
}

async function assertNameFree(
  db: Queryable,
  companyId: number,
  parentId: number | null,
  name: string,
  except?: number,
) {
  const filters = [
    eq(departments.companyId, companyId),
    parentId === null ? isNull(departments.parentId) : eq(departments.parentId, parentId),
    sql`lower(${departments.name}) = lower(${name})`,
  ];
  if (except) filters.push(ne(departments.id, except));
  const [taken] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(...filters));
  if (taken) throw new AppError('DEPARTMENT_NAME_TAKEN', { name });
}

/** The department administrator role of a department, if it has one. */
export async function adminRoleOf(db: Queryable, departmentId: number) {
  const [role] = await db
    .select({ id: roles.id, tags: roles.tags })
    .from(roles)
    .where(and(eq(roles.departmentId, departmentId), eq(roles.isDepartmentAdmin, true)));
  return role ?? null;
}

/**
 * Makes `userId` the person in charge of `department`: they move into it holding its department
 * administrator role (created on demand under the parent's ceiling), and stop being in charge of
 * the department they leave.
 */
export async function installLeader(
  tx: Queryable,
  department: DepartmentRow,
  userId: number,
): Promise<number> {
  let role = await adminRoleOf(tx, department.id);
  if (!role) {
    const ceiling = department.parentId
      ? ((await adminRoleOf(tx, department.parentId))?.tags ?? [])
      : undefined;
    role = { id: await insertAdminRole(tx, department.companyId, department.id, ceiling), tags: [] };
  }
  await tx
    .update(departments)
    .set({ leaderUserId: null })
    .where(
      and(
        eq(departments.companyId, department.companyId),
        eq(departments.leaderUserId, userId),
        ne(departments.id, department.id),
      ),
    );
  await tx.update(departments).set({ leaderUserId: userId }).where(eq(departments.id, department.id));
  await tx
    .update(companyMembers)
    .set({ departmentId: department.id, roleId: role.id })
    .where(and(eq(companyMembers.companyId, department.companyId), eq(companyMembers.userId, userId)));
  // The company, not only this person: a transfer also moves the former person in charge.
  authChanged({ companyId: department.companyId });
  return role.id;
}

/**
 * Adds a department under a parent in the caller's scope. It gets its own department
 * administrator role whose rights are those of the parent's administrator role (the ceiling of
 * spec section 6); a person in charge, when given, moves into it holding that role.
 */
export async function addDepartment(db: Db, auth: Auth, actor: Actor, input: AddDepartmentRequest) {
  const parent = await departmentInScope(db, auth, input.parentId);
  const leaderId = input.leaderId ? await assertMemberInScope(db, auth, idFromWire(input.leaderId)) : null;
  return db.transaction(async (tx) => {
    await assertNameFree(tx, parent.companyId, parent.id, input.name);
    const created = await insertDepartment(tx, {
      companyId: parent.companyId,
      parentId: parent.id,
      parentPath: parent.path,
      level: parent.level + 1,
      name: input.name,
      address: input.address,
      imageUrl: input.imageUrl,
    });
    const ceiling = (await adminRoleOf(tx, parent.id))?.tags ?? [];
    const roleId = await insertAdminRole(tx, parent.companyId, created.id, ceiling);
    const [row] = await tx.select().from(departments).where(eq(departments.id, created.id));
    if (leaderId) await installLeader(tx, row!, leaderId);
    await recordAudit(tx, actor, {
      action: 'department.add',
      targetType: 'department',
      targetId: created.id,
      after: { ...input, code: created.code, level: parent.level + 1, adminRoleId: roleId },
    });
    return { id: idToWire(created.id), code: created.code };
  });
}

/**
 * Edits name, address and image. The root department is the company: renaming it renames the
 * company too, which only the company administrator may do.
 */
export async function editDepartment(db: Db, auth: Auth, actor: Actor, input: EditDepartmentRequest) {
  const department = await departmentInScope(db, auth, input.id);
  const isRoot = department.parentId === null;
  if (isRoot && input.name !== department.name && !auth.isAdmin) {
    throw new AppError('DEPARTMENT_ROOT_RENAME_ADMIN_ONLY');
  }
  await db.transaction(async (tx) => {
    await assertNameFree(tx, department.companyId, department.parentId, input.name, department.id);
    const after = { name: input.name, address: input.address, imageUrl: input.imageUrl };
    await tx.update(departments).set(after).where(eq(departments.id, department.id));
    if (isRoot)
      await tx.update(companies).set({ name: input.name }).where(eq(companies.id, department.companyId));
    await recordAudit(tx, actor, {
      action: 'department.edit',
      targetType: 'department',
      targetId: department.id,
      before: { name: department.name, address: department.address, imageUrl: department.imageUrl },
      after,
    });
  });
}

/** Deletes an empty department (no sub-departments, members or devices); never the root. */
export async function deleteDepartment(db: Db, auth: Auth, actor: Actor, wireId: string) {
  const department = await departmentInScope(db, auth, wireId);
  if (department.parentId === null) throw new AppError('DEPARTMENT_ROOT_UNDELETABLE');
  await db.transaction(async (tx) => {
    const [subs] = await tx
      .select({ n: count() })
      .from(departments)
      .where(eq(departments.parentId, department.id));
    const [members] = await tx
      .select({ n: count() })
      .from(companyMembers)
      .where(eq(companyMembers.departmentId, department.id));
    const [deviceCount] = await tx
      .select({ n: count() })
      .from(devices)
      .where(eq(devices.departmentId, department.id));
    const remaining = {
      subDepartments: Number(subs?.n ?? 0),
      members: Number(members?.n ?? 0),
      devices: Number(deviceCount?.n ?? 0),
    };
    if (remaining.subDepartments + remaining.members + remaining.devices > 0) {
      throw new AppError('DEPARTMENT_NOT_EMPTY', remaining);
    }
    // Its roles, invitations and join requests go with it (foreign keys cascade).
    await tx.delete(departments).where(eq(departments.id, department.id));
    authChanged({ companyId: department.companyId });
    await recordAudit(tx, actor, {
      action: 'department.delete',
      targetType: 'department',
      targetId: department.id,
      before: { name: department.name, code: department.code, parentId: department.parentId },
    });
  });
}
