import {
  type AddGroupRequest,
  type DepartmentGroups,
  type EditGroupRequest,
  type GroupNode,
  type MoveGroupRequest,
  worstGroupState,
} from '@coldchain/contract';
import { and, asc, count, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { assertDepartmentInScope, departmentScope } from '../org/access';
import { departments } from '../org/org.table';
import { deviceGroups } from './groups.table';

export type GroupRow = typeof deviceGroups.$inferSelect;

/** The company's root department, which stands for the company itself. */
export async function rootDepartmentId(db: Queryable, companyId: number): Promise<number | null> {
  const [root] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)))
    .limit(1);
  return root?.id ?? null;
}

/** Groups of the departments the caller may see, optionally of one department only. */
export async function groupsInScope(db: Queryable, auth: Auth, departmentId?: number | null) {
  return db
    .select({ group: deviceGroups })
    .from(deviceGroups)
    .innerJoin(departments, eq(departments.id, deviceGroups.departmentId))
    .where(
      and(
        departmentScope(auth),
        eq(deviceGroups.companyId, auth.companyId ?? -1),
        departmentId ? eq(deviceGroups.departmentId, departmentId) : undefined,
      ),
    )
    .orderBy(asc(deviceGroups.name), asc(deviceGroups.id))
    .then((rows) => rows.map((r) => r.group));
}

/** The group `wireId` if it lies in a department the caller may see; otherwise "not found". */
export async function findGroup(db: Queryable, auth: Auth, wireId: string | null | undefined) {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select({ group: deviceGroups })
        .from(deviceGroups)
        .innerJoin(departments, eq(departments.id, deviceGroups.departmentId))
        .where(and(departmentScope(auth), eq(deviceGroups.id, id)))
    : [];
  if (!row) throw new AppError('GROUP_NOT_FOUND');
  return row.group;
}

/** `id` and every group below it, given all groups of its department. */
export function subtreeIds(all: GroupRow[], id: number): Set<number> {
  const ids = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of all)
      if (g.parentId !== null && ids.has(g.parentId) && !ids.has(g.id)) {
        ids.add(g.id);
        grew = true;
      }
  }
  return ids;
}

/** Per group: its own devices' states (a device counted once, in its own group). */
export type StatesByGroup = Map<number, number[]>;

/**
 * Builds the trees of `groups`: each group's state is the worst among its own devices and its
 * sub-groups' (contract `worstGroupState`). A group whose parent is not in the list (another
 * department's, or deleted) is shown at the top.
 */
export function buildGroupTree<T extends GroupNode>(
  groups: GroupRow[],
  statesByGroup: StatesByGroup,
  extend: (group: GroupRow, node: GroupNode) => T = (_, node) => node as T,
): T[] {
  const nodes = new Map<number, T>();
  for (const g of groups) {
    const states = statesByGroup.get(g.id) ?? [];
    nodes.set(
      g.id,
      extend(g, {
        id: idToWire(g.id),
        pid: g.parentId === null ? '0' : idToWire(g.parentId),
        departmentId: idToWire(g.departmentId),
        name: g.name,
        state: worstGroupState(states),
        deviceCount: states.length,
        children: [],
      }),
    );
  }
  const roots: T[] = [];
  for (const g of groups) {
    const node = nodes.get(g.id)!;
    const parent = g.parentId === null ? undefined : nodes.get(g.parentId);
    if (parent) parent.children.push(node);
    else {
      node.pid = '0';
      roots.push(node);
    }
  }
  const settle = (node: T): number => {
    node.state = worstGroupState([node.state, ...node.children.map((c) => settle(c as T))]);
    return node.state;
  };
  for (const root of roots) settle(root);
  return roots;
}

/** `/api/group/listGroups`: group trees with state and device count, devices as the caller sees them. */
export async function listGroups(
  db: Db,
  auth: Auth,
  visible: SQL,
  departmentWireId: string | undefined,
): Promise<GroupNode[]> {
  const departmentId = await assertDepartmentInScope(db, auth, departmentWireId);
  const groups = await groupsInScope(db, auth, departmentId);
  if (groups.length === 0) return [];
  const rows = await db
    .select({ groupId: devices.groupId, state: devices.state, n: count() })
    .from(devices)
    .where(
      and(
        visible,
        inArray(
          devices.groupId,
          groups.map((g) => g.id),
        ),
      ),
    )
    .groupBy(devices.groupId, devices.state);
  const states: StatesByGroup = new Map();
  for (const row of rows) {
    const list = states.get(row.groupId!) ?? [];
    for (let i = 0; i < Number(row.n); i++) list.push(row.state);
    states.set(row.groupId!, list);
  }
  return buildGroupTree(groups, states);
}

async function assertNameFree(db: Queryable, departmentId: number, name: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.departmentId, departmentId), eq(deviceGroups.name, name)));
  if (taken && taken.id !== exceptId) throw new AppError('GROUP_NAME_TAKEN');
}

export async function addGroup(db: Db, actor: Actor, auth: Auth, input: AddGroupRequest) {
  const departmentId = (await assertDepartmentInScope(db, auth, input.departmentId))!;
  if (input.parentId) {
    const parent = await findGroup(db, auth, input.parentId);
    if (parent.departmentId !== departmentId) throw new AppError('GROUP_MOVE_ACROSS_DEPARTMENTS');
  }
  return db.transaction(async (tx) => {
    await assertNameFree(tx, departmentId, input.name);
    const [row] = await tx
      .insert(deviceGroups)
      .values({
        companyId: actor.companyId,
        departmentId,
        parentId: idFromWire(input.parentId),
        name: input.name,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'group.add',
      targetType: 'group',
      targetId: row!.id,
      after: { name: row!.name, departmentId, parentId: row!.parentId },
    });
    return { id: idToWire(row!.id) };
  });
}

export async function editGroup(db: Db, actor: Actor, auth: Auth, input: EditGroupRequest) {
  const group = await findGroup(db, auth, input.id);
  await db.transaction(async (tx) => {
    await assertNameFree(tx, group.departmentId, input.name, group.id);
    await tx.update(deviceGroups).set({ name: input.name }).where(eq(deviceGroups.id, group.id));
    await recordAudit(tx, actor, {
      action: 'group.edit',
      targetType: 'group',
      targetId: group.id,
      before: { name: group.name },
      after: { name: input.name },
    });
  });
}

/**
 * Spec section 5: a group never moves across departments, to the company (the root department,
 * when the group lives below it), or into itself or one of its own sub-groups.
 */
export async function moveGroup(db: Db, actor: Actor, auth: Auth, input: MoveGroupRequest) {
  const group = await findGroup(db, auth, input.id);
  const targetDepartment = idFromWire(input.departmentId);
  const rootId = await rootDepartmentId(db, actor.companyId);
  if (targetDepartment !== group.departmentId) {
    if (targetDepartment === rootId) throw new AppError('GROUP_MOVE_TO_COMPANY');
    throw new AppError('GROUP_MOVE_ACROSS_DEPARTMENTS');
  }
  let parentId: number | null = null;
  if (input.parentId) {
    if (idFromWire(input.parentId) === group.id) throw new AppError('GROUP_MOVE_INTO_ITSELF');
    const parent = await findGroup(db, auth, input.parentId);
    if (parent.departmentId !== group.departmentId) throw new AppError('GROUP_MOVE_ACROSS_DEPARTMENTS');
    const siblings = await db
      .select()
      .from(deviceGroups)
      .where(eq(deviceGroups.departmentId, group.departmentId));
    if (subtreeIds(siblings, group.id).has(parent.id)) throw new AppError('GROUP_MOVE_INTO_ITSELF');
    parentId = parent.id;
  }
  await db.transaction(async (tx) => {
    await tx.update(deviceGroups).set({ parentId }).where(eq(deviceGroups.id, group.id));
    await recordAudit(tx, actor, {
      action: 'group.move',
      targetType: 'group',
      targetId: group.id,
      before: { parentId: group.parentId },
      after: { parentId },
    });
  });
}

/** Deletes a group: its devices fall back to no group, its sub-groups move up to its parent. */
export async function deleteGroup(db: Db, actor: Actor, auth: Auth, wireId: string) {
  const group = await findGroup(db, auth, wireId);
  await db.transaction(async (tx) => {
    const released = await tx
      .update(devices)
      .set({ groupId: null })
      .where(and(eq(devices.companyId, actor.companyId), eq(devices.groupId, group.id)))
      .returning({ id: devices.id });
    await tx
      .update(deviceGroups)
      .set({ parentId: group.parentId })
      .where(eq(deviceGroups.parentId, group.id));
    await tx.delete(deviceGroups).where(eq(deviceGroups.id, group.id));
    await recordAudit(tx, actor, {
      action: 'group.delete',
      targetType: 'group',
      targetId: group.id,
      before: { name: group.name, departmentId: group.departmentId, parentId: group.parentId },
      after: { releasedDeviceIds: released.map((d) => d.id) },
    });
  });
}

/**
 * The group a device may be put in: one of the device's own department (a device without a
 * department belongs to the company, i.e. the root department). Throws otherwise.
 */
export async function assertGroupFitsDevice(
  db: Queryable,
  companyId: number,
  groupId: number,
  deviceDepartmentId: number | null,
): Promise<void> {
  const [group] = await db
    .select({ departmentId: deviceGroups.departmentId })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.id, groupId), eq(deviceGroups.companyId, companyId)));
  if (!group) throw new AppError('GROUP_NOT_FOUND');
  const departmentId = deviceDepartmentId ?? (await rootDepartmentId(db, companyId));
  if (group.departmentId !== departmentId) throw new AppError('GROUP_NOT_IN_DEPARTMENT');
}

/** `/api/group/departmentGroups`: every department in scope with its group trees. */
export async function departmentGroups(db: Db, auth: Auth, visible: SQL): Promise<DepartmentGroups[]> {
  const scoped = await db
    .select({
      id: departments.id,
      parentId: departments.parentId,
      name: departments.name,
      level: departments.level,
      path: departments.path,
    })
    .from(departments)
    .where(departmentScope(auth));
  scoped.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  const trees = await listGroups(db, auth, visible, undefined);
  return scoped.map((d) => ({
    id: idToWire(d.id),
    pid: d.parentId === null ? '0' : idToWire(d.parentId),
    name: d.name,
    level: d.level,
    groups: trees.filter((g) => g.departmentId === idToWire(d.id)),
  }));
}
