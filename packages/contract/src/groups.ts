import { z } from 'zod';
import type { DeviceView } from './devices';

/*
 * Device groups (spec sections 3-5): named sets of monitors inside one department, nestable.
 * docs/API.md lists the calls; docs/decisions.md "Device groups" explains the rules.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** Spec section 5: a group name is 2-20 characters (any script). */
export const GroupName = z
  .string()
  .trim()
  .refine((v) => Array.from(v).length >= 2 && Array.from(v).length <= 20, { error: 'rule.groupName' });

/**
 * Group state 1-5 means what device state 1-5 means (spec section 4). A group takes the worst
 * state among the devices in it and in its sub-groups, worst first in this order; an empty group
 * (or one holding only disposed devices) is normal.
 */
export const GROUP_STATE_SEVERITY = [2, 3, 4, 5, 1] as const;

/** The worst of some device states, as a group state (1-5). */
export function worstGroupState(states: Iterable<number>): number {
  let worst: number = 1;
  for (const state of states) {
    const rank = GROUP_STATE_SEVERITY.indexOf(state as (typeof GROUP_STATE_SEVERITY)[number]);
    if (rank >= 0 && rank < GROUP_STATE_SEVERITY.indexOf(worst as 1)) worst = state;
  }
  return worst;
}

export interface GroupNode {
  id: string;
  /** Parent group id, `'0'` for a group at the top of its department. */
  pid: string;
  departmentId: string;
  name: string;
  /** 1-5, see `GROUP_STATE_SEVERITY`. */
  state: number;
  /** Devices in this group itself (not its sub-groups). */
  deviceCount: number;
  children: GroupNode[];
}

/** `/api/group/listGroups`: the group trees of one department, or of every department in scope. */
export const ListGroupsRequest = z.object({ departmentId: Id.optional() });
export type ListGroupsRequest = z.infer<typeof ListGroupsRequest>;

/** `/api/group/addGroup` */
export const AddGroupRequest = z.object({
  departmentId: Id,
  parentId: Id.optional(),
  name: GroupName,
});
export type AddGroupRequest = z.infer<typeof AddGroupRequest>;

/** `/api/group/editGroup`: renames; moving is `moveGroup`. */
export const EditGroupRequest = z.object({ id: Id, name: GroupName });
export type EditGroupRequest = z.infer<typeof EditGroupRequest>;

/**
 * `/api/group/moveGroup`: to the top of its department (no parentId) or under another group of
 * the same department. Spec section 5: never across departments, to the company, or into itself.
 */
export const MoveGroupRequest = z.object({ id: Id, departmentId: Id, parentId: Id.optional() });
export type MoveGroupRequest = z.infer<typeof MoveGroupRequest>;

export const GroupIdRequest = z.object({ id: Id });
export type GroupIdRequest = z.infer<typeof GroupIdRequest>;

/** `/api/group/groupDevices` (groupingMode): one department, or every one in scope. */
export const GroupDevicesRequest = z.object({ departmentId: Id.optional() });
export type GroupDevicesRequest = z.infer<typeof GroupDevicesRequest>;

export interface GroupWithDevices extends Omit<GroupNode, 'children'> {
  devices: DeviceView[];
  children: GroupWithDevices[];
}

export interface GroupingDepartment {
  id: string;
  name: string;
  /** The worst state of every device of the department shown here. */
  state: number;
  groups: GroupWithDevices[];
  /** Devices of the department that are in no group. */
  devices: DeviceView[];
}

/**
 * `/api/group/departmentGroups`: the departments the caller may see, each with its group trees,
 * for department and group pickers (batch transfer, device forms). Needs only `device:view`.
 */
export interface DepartmentGroups {
  id: string;
  /** Parent department id, `'0'` for the root (the company). */
  pid: string;
  name: string;
  level: number;
  groups: GroupNode[];
}
