import type {
  AddGroupRequest,
  DepartmentGroups,
  EditGroupRequest,
  GroupingDepartment,
  MoveGroupRequest,
} from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';

/** Group calls of docs/API.md (`/api/group/*`). */
export const GROUP_PATHS = {
  groupDevices: '/api/group/groupDevices',
  departmentGroups: '/api/group/departmentGroups',
  add: '/api/group/addGroup',
  edit: '/api/group/editGroup',
  move: '/api/group/moveGroup',
  remove: '/api/group/deleteGroup',
} as const;

export const GroupQueryKey = {
  all: ['groups'],
  grouping: (departmentId: string | null) => ['groups', 'grouping', departmentId],
  departments: ['groups', 'departments'],
} as const;

/** The grouping mode follows live values at the pace readings arrive. */
export const GROUPING_REFRESH_MS = 30_000;

export const fetchGroupDevices = (departmentId: string | null) =>
  request<GroupingDepartment[]>(GROUP_PATHS.groupDevices, departmentId ? { departmentId } : {});
export const fetchDepartmentGroups = () => request<DepartmentGroups[]>(GROUP_PATHS.departmentGroups);

export function useGroupDevices(departmentId: string | null) {
  return useQuery({
    queryKey: GroupQueryKey.grouping(departmentId),
    queryFn: () => fetchGroupDevices(departmentId),
    refetchInterval: GROUPING_REFRESH_MS,
  });
}

export function useDepartmentGroups(enabled = true) {
  return useQuery({ queryKey: GroupQueryKey.departments, queryFn: fetchDepartmentGroups, enabled });
}

function useGroupMutation<T>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => request<unknown>(path, body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: GroupQueryKey.all });
      await client.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}

export const useAddGroup = () => useGroupMutation<AddGroupRequest>(GROUP_PATHS.add);
export const useEditGroup = () => useGroupMutation<EditGroupRequest>(GROUP_PATHS.edit);
export const useMoveGroup = () => useGroupMutation<MoveGroupRequest>(GROUP_PATHS.move);
export const useDeleteGroup = () => useGroupMutation<{ id: string }>(GROUP_PATHS.remove);
