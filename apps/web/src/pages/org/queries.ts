import type {
  AddDepartmentRequest,
  AddRoleRequest,
  AssignRoleRequest,
  DepartmentDetail,
  DepartmentNode,
  EditDepartmentRequest,
  EditRoleRequest,
  IncomingAuditRequest,
  InviteInfo,
  InviteLink,
  JoinOrganizeRequest,
  JoinRequestListRequest,
  JoinRequestView,
  MemberOption,
  MemberView,
  MoveUserRequest,
  PageRolesRequest,
  PageUsersRequest,
  RoleView,
  TransferLeaderRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { request, uploadFile } from '../../api/request';
import i18n from '../../i18n';
import type { PageOf } from '../alarms/queries';

/** Organisation, role and personnel calls of packages/contract/src/org.ts. */

export const ORG_PATHS = {
  tree: '/api/user/userOrganizeList',
  info: '/api/user/userOrganizeInfo',
  myDepartment: '/api/userOrganize/myDepartment',
  addDepartment: '/api/userOrganize/addDepartment',
  editDepartment: '/api/userOrganize/editDepartment',
  deleteDepartment: '/api/userOrganize/deleteDepartment',
  transferLeader: '/api/userOrganize/transferLeader',
  createInvite: '/api/userOrganize/createInvite',
  inviteInfo: '/api/userOrganize/getOrganizeInviteById',
  inviteJoin: '/api/userOrganize/inviteJoinOrganize',
  joinOrganize: '/api/user/joinOrganize',
  joinRequests: '/api/user/joinRequestList',
  incomingAudit: '/api/user/incomingAudit',
  createCompany: '/api/user/createCompany',
  industries: '/api/user/industryList',
  pageRoles: '/api/role/pageRoles',
  assignableTags: '/api/role/assignableTags',
  addRole: '/api/role/addRole',
  editRole: '/api/role/editRole',
  deleteRole: '/api/role/deleteRole',
  pageUsers: '/api/personnel/pageUsers',
  memberOptions: '/api/personnel/memberOptions',
  assignRole: '/api/personnel/assignRole',
  moveUser: '/api/personnel/moveUser',
  removeUser: '/api/personnel/removeUser',
  upload: '/api/file/upload',
} as const;

/** The tree may arrive as a list of roots or as the one root (company) node. */
function asRoots(data: DepartmentNode[] | DepartmentNode | null): DepartmentNode[] {
  if (!data) return [];
  return Array.isArray(data) ? data : [data];
}

export const fetchDepartmentTree = async () =>
  asRoots(await request<DepartmentNode[] | DepartmentNode | null>(ORG_PATHS.tree));
export const fetchDepartment = (id: string) => request<DepartmentDetail>(ORG_PATHS.info, { id });
/** The caller's own department; `members` is used when the server includes them. */
export const fetchMyDepartment = () =>
  request<(DepartmentDetail & { members?: MemberView[] }) | null>(ORG_PATHS.myDepartment);
export const fetchRoles = (body: PageRolesRequest) => request<PageOf<RoleView>>(ORG_PATHS.pageRoles, body);
/** `tags`: what a role of the department may hold; `adminTags`: its administrator role's wider ceiling. */
export const fetchAssignableTags = (departmentId: string) =>
  request<{ tags: string[]; adminTags?: string[] }>(ORG_PATHS.assignableTags, { departmentId });
export const fetchMembers = (body: Partial<PageUsersRequest>) =>
  request<PageOf<MemberView>>(ORG_PATHS.pageUsers, body);
export const fetchMemberOptions = (departmentId?: string) =>
  request<MemberOption[]>(ORG_PATHS.memberOptions, departmentId ? { departmentId } : {});
export const fetchJoinRequests = (body: Partial<JoinRequestListRequest>) =>
  request<PageOf<JoinRequestView>>(ORG_PATHS.joinRequests, body);
export const fetchInviteInfo = (id: string) => request<InviteInfo>(ORG_PATHS.inviteInfo, { id });
export const fetchIndustries = () => request<{ value: string; label: string }[]>(ORG_PATHS.industries);
/** `purpose: 'department'` makes the server apply the department image limits (jpg/png, 3 MB). */
export const uploadImage = (file: File) =>
  uploadFile<{ url: string }>(ORG_PATHS.upload, file, file.name, { purpose: 'department' });

/** Every org screen's data sits under ['org'] so a change refreshes the tree, roles and members. */
export const OrgKey = {
  all: ['org'],
  tree: ['org', 'tree'],
  department: (id: string) => ['org', 'department', id],
  mine: ['org', 'mine'],
  roles: (body: PageRolesRequest) => ['org', 'roles', body],
  tags: (departmentId: string) => ['org', 'tags', departmentId],
  members: (body: Partial<PageUsersRequest>) => ['org', 'members', body],
  options: (departmentId?: string) => ['org', 'options', departmentId ?? ''],
  joins: (body: Partial<JoinRequestListRequest>) => ['org', 'joins', body],
} as const;

export function useDepartmentTree(enabled = true) {
  return useQuery({ queryKey: OrgKey.tree, queryFn: fetchDepartmentTree, enabled });
}

export function useDepartment(id: string | null) {
  return useQuery({
    queryKey: OrgKey.department(id ?? ''),
    queryFn: () => fetchDepartment(id ?? ''),
    enabled: !!id,
  });
}

export function useMyDepartment() {
  return useQuery({ queryKey: OrgKey.mine, queryFn: fetchMyDepartment });
}

/** Roles of one department; a department has few, so one page of 200 holds them all. */
export function useRoles(departmentId: string | null | undefined) {
  const body: PageRolesRequest = { pageNum: 1, pageSize: 200, departmentId: departmentId ?? '' };
  return useQuery({
    queryKey: OrgKey.roles(body),
    queryFn: () => fetchRoles(body),
    enabled: !!departmentId,
  });
}

export function useAssignableTags(departmentId: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: OrgKey.tags(departmentId ?? ''),
    queryFn: () => fetchAssignableTags(departmentId ?? ''),
    enabled: enabled && !!departmentId,
  });
}

export function useMembers(body: Partial<PageUsersRequest>, enabled = true) {
  return useQuery({
    queryKey: OrgKey.members(body),
    queryFn: () => fetchMembers(body),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useMemberOptions(departmentId?: string, enabled = true) {
  return useQuery({
    queryKey: OrgKey.options(departmentId),
    queryFn: () => fetchMemberOptions(departmentId),
    enabled,
  });
}

export function useJoinRequests(body: Partial<JoinRequestListRequest>, enabled = true) {
  return useQuery({ queryKey: OrgKey.joins(body), queryFn: () => fetchJoinRequests(body), enabled });
}

export function useInviteInfo(id: string) {
  return useQuery({
    queryKey: ['invite', id],
    queryFn: () => fetchInviteInfo(id),
    enabled: !!id,
    retry: false,
  });
}

export function useIndustries() {
  return useQuery({ queryKey: ['industries'], queryFn: fetchIndustries, staleTime: Infinity });
}

/** A change of the organisation: confirm it and refresh everything under ['org'] afterwards. */
function useOrgMutation<TBody, TResult>(path: string) {
  const client = useQueryClient();
  const { message } = App.useApp();
  return useMutation({
    mutationFn: (body: TBody) => request<TResult>(path, body),
    onSuccess: () => {
      // Creating an invitation shows the link itself; every other change gets a short toast.
      if (path !== ORG_PATHS.createInvite) void message.success(i18n.t('org.done'));
      // Not awaited: a dialog closes or a page moves on while the lists refresh behind it.
      void client.invalidateQueries({ queryKey: OrgKey.all });
    },
  });
}

export const useAddDepartment = () =>
  useOrgMutation<AddDepartmentRequest, { id: string }>(ORG_PATHS.addDepartment);
export const useEditDepartment = () =>
  useOrgMutation<EditDepartmentRequest, unknown>(ORG_PATHS.editDepartment);
export const useDeleteDepartment = () => useOrgMutation<{ id: string }, unknown>(ORG_PATHS.deleteDepartment);
export const useTransferLeader = () =>
  useOrgMutation<TransferLeaderRequest, unknown>(ORG_PATHS.transferLeader);
export const useCreateInvite = () =>
  useOrgMutation<{ departmentId: string }, InviteLink>(ORG_PATHS.createInvite);
export const useIncomingAudit = () => useOrgMutation<IncomingAuditRequest, unknown>(ORG_PATHS.incomingAudit);
export const useAddRole = () => useOrgMutation<AddRoleRequest, { id: string }>(ORG_PATHS.addRole);
export const useEditRole = () => useOrgMutation<EditRoleRequest, unknown>(ORG_PATHS.editRole);
export const useDeleteRole = () => useOrgMutation<{ id: string }, unknown>(ORG_PATHS.deleteRole);
export const useAssignRole = () => useOrgMutation<AssignRoleRequest, unknown>(ORG_PATHS.assignRole);
export const useMoveUser = () => useOrgMutation<MoveUserRequest, unknown>(ORG_PATHS.moveUser);
export const useRemoveUser = () => useOrgMutation<{ userId: string }, unknown>(ORG_PATHS.removeUser);

/**
 * Joining or creating a company changes the caller's companies, menus and rights: the session
 * queries are refreshed with the org data.
 */
function useSessionMutation<TBody, TResult>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => request<TResult>(path, body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['session'] });
      await client.invalidateQueries({ queryKey: OrgKey.all });
    },
  });
}

export const useJoinOrganize = () => useSessionMutation<JoinOrganizeRequest, unknown>(ORG_PATHS.joinOrganize);
export const useInviteJoin = () => useSessionMutation<{ id: string }, unknown>(ORG_PATHS.inviteJoin);
export const useCreateCompany = () =>
  useSessionMutation<{ name: string; industry?: string; region?: string; address?: string }, { id: string }>(
    ORG_PATHS.createCompany,
  );
