import { z } from 'zod';
import type { EquipmentUseStateCounts } from './equipment';

/*
 * Departments, invitations, joining, roles and personnel (spec sections 3-6). The server's
 * request schemas and the console's forms share these; docs/API.md lists the calls.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const PageFields = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
};

/** Any CJK character makes a text "Chinese" for the length rules of spec section 5. */
export function isChineseText(text: string): boolean {
  return /[\u3400-\u9fff\uf900-\ufaff]/.test(text);
}

/**
 * Spec section 5: user and role names are 2-20 characters in English texts, 2-100 in Chinese
 * ones; letters and digits (and spaces inside) in English texts.
 */
export const PersonOrRoleName = z
  .string()
  .trim()
  .refine(
    (v) => {
      const length = Array.from(v).length;
      if (isChineseText(v)) return length >= 2 && length <= 100;
      return length >= 2 && length <= 20 && /^[A-Za-z0-9][A-Za-z0-9 ]*$/.test(v);
    },
    { error: 'rule.nameLength' },
  );

/** Spec section 5: organization (company and department) names are 2-20 characters. */
export const OrganizationName = z
  .string()
  .trim()
  .refine((v) => Array.from(v).length >= 2 && Array.from(v).length <= 20, { error: 'rule.organizationName' });

/** Spec section 5: a department code is 12 digits. */
export const DepartmentCode = z
  .string()
  .trim()
  .regex(/^\d{12}$/, { error: 'rule.departmentCode' });

/** An uploaded file's URL as `/api/file/upload` returns it; empty clears it. */
const FileUrl = z.string().trim().max(500);

// ---- Departments --------------------------------------------------------------------------

export interface DepartmentNode {
  id: string;
  /** Parent id, `'0'` for the root department (the company itself). */
  pid: string;
  code: string;
  name: string;
  level: number;
  leaderId: string | null;
  leaderName: string;
  address: string;
  imageUrl: string;
  memberCount: number;
  /** Devices filed in this department itself: what the device list shows filtered by it. */
  deviceCount: number;
  /**
   * Devices of this department and every department below it; the root (the company itself)
   * also counts the devices filed in no department (docs/decisions.md, "Department device counts").
   */
  subtreeDeviceCount: number;
  children: DepartmentNode[];
}

export interface DepartmentDetail extends Omit<DepartmentNode, 'children'> {
  parentName: string;
  companyName: string;
  /** Whether the caller may edit it (org:edit within their scope). */
  editable: boolean;
}

/** `/api/userOrganize/addDepartment` */
export const AddDepartmentRequest = z.object({
  parentId: Id,
  name: OrganizationName,
  leaderId: Id.optional(),
  address: z.string().trim().max(255).default(''),
  imageUrl: FileUrl.default(''),
});
export type AddDepartmentRequest = z.infer<typeof AddDepartmentRequest>;

/** `/api/userOrganize/editDepartment` */
export const EditDepartmentRequest = z.object({
  id: Id,
  name: OrganizationName,
  address: z.string().trim().max(255).default(''),
  imageUrl: FileUrl.default(''),
});
export type EditDepartmentRequest = z.infer<typeof EditDepartmentRequest>;

/** `/api/userOrganize/transferLeader`: a member of the department becomes its person in charge. */
export const TransferLeaderRequest = z.object({ id: Id, userId: Id });
export type TransferLeaderRequest = z.infer<typeof TransferLeaderRequest>;

export const OrgIdRequest = z.object({ id: Id });
export type OrgIdRequest = z.infer<typeof OrgIdRequest>;

/**
 * `/api/user/changeOrganizeName`: renames the company in scope (and its root department); the
 * optional fields edit the rest of its information (spec section 3), each left as it is when absent.
 */
export const ChangeOrganizeNameRequest = z.object({
  name: OrganizationName,
  industry: z.string().trim().max(40).optional(),
  region: z.string().trim().max(255).optional(),
  address: z.string().trim().max(255).optional(),
});
export type ChangeOrganizeNameRequest = z.infer<typeof ChangeOrganizeNameRequest>;

/** `/api/userOrganize/companyDataInfo`: the home page's company statistics. */
export interface CompanyDataInfo {
  companyId: string;
  companyName: string;
  departmentCount: number;
  memberCount: number;
  deviceCount: number;
  /** Device count per state 1-6. */
  deviceStates: Record<string, number>;
  alarmsToday: number;
  pendingAlarms: number;
  /** Equipment per use state (spec section 4); null without `equipment:view`. */
  equipmentStates: EquipmentUseStateCounts | null;
}

/** `/api/userOrganize/indexChartForStatistics`: alarms per day for the home page chart. */
export const ChartStatisticsRequest = z.object({
  days: z.coerce.number().int().min(1).max(90).default(7),
});
export interface ChartStatistics {
  days: { date: string; alarms: number; resolved: number }[];
}

// ---- Invitations and joining --------------------------------------------------------------

/** `/api/userOrganize/createInvite` -> InviteLink */
export const CreateInviteRequest = z.object({ departmentId: Id });
export interface InviteLink {
  /** The unguessable id in the link: `/invite?id=<id>`. */
  id: string;
  expireTime: number;
}

/** `/api/userOrganize/getOrganizeInviteById` (public: the landing page may be opened logged out). */
export const InviteIdRequest = z.object({ id: z.string().trim().min(1).max(64) });
export interface InviteInfo {
  companyName: string;
  departmentName: string;
  inviterName: string;
  expireTime: number;
  /** Expired or unknown: the landing page shows the broken-link state. */
  valid: boolean;
}

/** `/api/user/joinOrganize` and `/api/register/joinOrganization`: apply with a department code. */
export const JoinOrganizeRequest = z.object({
  code: DepartmentCode,
  remark: z.string().trim().max(255).default(''),
});
export type JoinOrganizeRequest = z.infer<typeof JoinOrganizeRequest>;

export const JoinRequestState = { Pending: 1, Approved: 2, Rejected: 3 } as const;

/** `/api/user/joinRequestList` */
export const JoinRequestListRequest = z.object({
  ...PageFields,
  departmentId: Id.optional(),
  state: z.coerce.number().int().min(1).max(3).optional(),
});
export type JoinRequestListRequest = z.infer<typeof JoinRequestListRequest>;
export interface JoinRequestView {
  id: string;
  userId: string;
  userName: string;
  account: string;
  departmentId: string;
  departmentName: string;
  remark: string;
  state: number;
  createTime: number;
  decidedTime: number | null;
}

/** `/api/user/incomingAudit`: the person in charge approves or rejects an application. */
export const IncomingAuditRequest = z.object({
  id: Id,
  approve: z.boolean(),
  remark: z.string().trim().max(255).default(''),
});
export type IncomingAuditRequest = z.infer<typeof IncomingAuditRequest>;

// ---- Roles --------------------------------------------------------------------------------

export interface RoleView {
  id: string;
  departmentId: string;
  name: string;
  isDepartmentAdmin: boolean;
  userCount: number;
  /** `authTags`; empty shows "Temporary no permissions". */
  tags: string[];
}

/** `/api/role/pageRoles` */
export const PageRolesRequest = z.object({ ...PageFields, departmentId: Id });
export type PageRolesRequest = z.infer<typeof PageRolesRequest>;

/** `/api/role/assignableTags` -> `{ tags }`: what a role of that department may hold. */
export const AssignableTagsRequest = z.object({ departmentId: Id });

/** `/api/role/addRole` */
export const AddRoleRequest = z.object({
  departmentId: Id,
  name: PersonOrRoleName,
  tags: z.array(z.string().max(40)).max(100).default([]),
});
export type AddRoleRequest = z.infer<typeof AddRoleRequest>;

/** `/api/role/editRole`: reducing a department administrator role reduces every role below. */
export const EditRoleRequest = z.object({
  id: Id,
  name: PersonOrRoleName,
  tags: z.array(z.string().max(40)).max(100).default([]),
});
export type EditRoleRequest = z.infer<typeof EditRoleRequest>;

// ---- Personnel ----------------------------------------------------------------------------

export interface MemberView {
  userId: string;
  name: string;
  account: string;
  phone: string;
  email: string;
  departmentId: string | null;
  departmentName: string;
  roleId: string | null;
  roleName: string;
  isAdmin: boolean;
  legalPerson: boolean;
  isLeader: boolean;
  joinTime: number;
  lastLoginTime: number | null;
  /** May export files (spec section 6 flag; the company administrator's `/api/personnel/setExportExcel`). */
  exportExcel: boolean;
}

/** `/api/personnel/pageUsers`: members of the caller's scope, optionally one department (and below). */
export const PageUsersRequest = z.object({
  ...PageFields,
  departmentId: Id.optional(),
  includeChildren: z.boolean().default(true),
  roleId: Id.optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type PageUsersRequest = z.infer<typeof PageUsersRequest>;

/** `/api/personnel/memberOptions` -> `{ id, name }[]`: people to pick (notifiers, leaders). */
export interface MemberOption {
  id: string;
  name: string;
}

/** `/api/personnel/assignRole`: a role of the member's department. */
export const AssignRoleRequest = z.object({ userId: Id, roleId: Id });
export type AssignRoleRequest = z.infer<typeof AssignRoleRequest>;

/** `/api/personnel/moveUser`: to another department, with a role of it or none yet. */
export const MoveUserRequest = z.object({ userId: Id, departmentId: Id, roleId: Id.optional() });
export type MoveUserRequest = z.infer<typeof MoveUserRequest>;

/** `/api/personnel/removeUser`: takes the person out of the company. */
export const RemoveUserRequest = z.object({ userId: Id });
export type RemoveUserRequest = z.infer<typeof RemoveUserRequest>;
