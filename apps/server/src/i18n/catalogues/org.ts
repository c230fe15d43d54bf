import type { Catalogue, LabelCatalogue } from './types';

/** Messages of departments, invitations, joining, roles and personnel (keys are AppError codes). */
export const orgMessages = {
  'rule.nameLength': {
    en: '{field} must be 2-20 letters and digits, or 2-100 characters in Chinese',
    cn: '{field}须为 2-20 位英文字母和数字，或 2-100 个中文字符',
  },
  'rule.organizationName': { en: '{field} must be 2-20 characters', cn: '{field}须为 2-20 个字符' },
  // Named outright: the shared label of `code` is "Verification code".
  'rule.departmentCode': { en: 'Department code must be 12 digits', cn: '部门编码须为 12 位数字' },
  // ---- Departments, company, invitations and joining (departments/joining helper) ----
  DEPARTMENT_NOT_FOUND: { en: 'The department does not exist', cn: '部门不存在' },
  DEPARTMENT_NAME_TAKEN: {
    en: 'A department named "{name}" already exists at this level',
    cn: '同级已存在名为“{name}”的部门',
  },
  DEPARTMENT_LEADER_NOT_MEMBER: {
    en: 'The person in charge must be a member of your departments',
    cn: '负责人须为您所管理部门的成员',
  },
  DEPARTMENT_ROOT_UNDELETABLE: {
    en: 'The top department stands for the company and cannot be deleted',
    cn: '顶级部门代表企业本身，不能删除',
  },
  DEPARTMENT_NOT_EMPTY: {
    en: 'The department is not empty (sub-departments: {subDepartments}, members: {members}, devices: {devices}); move or delete them first',
    cn: '该部门不为空（下级部门：{subDepartments}，成员：{members}，设备：{devices}），请先移走或删除',
  },
  DEPARTMENT_ROOT_RENAME_ADMIN_ONLY: {
    en: 'Only the company administrator can rename the top department (it is the company name)',
    cn: '只有企业管理员可以修改顶级部门名称（即企业名称）',
  },
  DEPARTMENT_ADDED: { en: 'Department added', cn: '部门已添加' },
  DEPARTMENT_SAVED: { en: 'Department saved', cn: '部门已保存' },
  DEPARTMENT_DELETED: { en: 'Department deleted', cn: '部门已删除' },
  LEADER_ALREADY: { en: 'This person is already in charge of the department', cn: '该成员已是该部门负责人' },
  LEADER_TRANSFERRED: { en: 'Person in charge transferred', cn: '负责人已转让' },
  COMPANY_ADMIN_ONLY: {
    en: 'Only the company administrator can do this',
    cn: '只有企业管理员可以执行此操作',
  },
  COMPANY_RENAMED: { en: 'Company name changed', cn: '企业名称已修改' },
  LEAVE_LEGAL_PERSON: {
    en: 'The legal person of the company cannot leave it',
    cn: '企业法人不能退出企业',
  },
  LEAVE_LAST_ADMIN: {
    en: 'You are the last administrator of the company; make someone else administrator before leaving',
    cn: '您是企业唯一的管理员，请先指定其他管理员再退出',
  },
  LEFT_COMPANY: { en: 'You have left the company', cn: '您已退出该企业' },
  INVITE_LINK_BROKEN: { en: 'Link broken', cn: '链接已失效' },
  INVITE_CREATED: { en: 'Invitation link created, valid for 24 hours', cn: '邀请链接已生成，24 小时内有效' },
  ALREADY_MEMBER: { en: 'You are already a member of this company', cn: '您已是该企业的成员' },
  APPLICANT_ALREADY_MEMBER: {
    en: 'The applicant is already a member of this company',
    cn: '申请人已是该企业的成员',
  },
  JOINED_WAIT_FOR_ROLE: {
    en: 'You have successfully joined the company, please wait for a role and permissions to be assigned',
    cn: '您已成功加入企业，请等待分配角色和权限',
  },
  DEPARTMENT_CODE_UNKNOWN: {
    en: 'No department has this department code; please check it',
    cn: '不存在该部门编码的部门，请检查后重试',
  },
  JOIN_ALREADY_PENDING: {
    en: 'You have already applied to join this company; please wait for the approval',
    cn: '您已申请加入该企业，请等待审核',
  },
  JOIN_APPLIED: {
    en: 'Application sent; please wait for the person in charge to approve it',
    cn: '申请已提交，请等待负责人审核',
  },
  JOIN_REQUEST_NOT_FOUND: { en: 'The application does not exist', cn: '申请记录不存在' },
  JOIN_ALREADY_DECIDED: {
    en: 'This application has already been approved or rejected',
    cn: '该申请已审核，无需重复操作',
  },
  JOIN_APPROVED: {
    en: 'Approved; the new member now needs a role',
    cn: '已通过，请为新成员分配角色',
  },
  JOIN_REJECTED: { en: 'Application rejected', cn: '已拒绝该申请' },
  // ---- Roles and personnel (roles/personnel helper) ----
  ROLE_NOT_FOUND: { en: 'The role does not exist', cn: '角色不存在' },
  ROLE_NAME_TAKEN: {
    en: 'Role name: this department already has a role named "{name}"',
    cn: '角色名称：该部门已存在名为“{name}”的角色',
  },
  ROLE_TAG_UNKNOWN: {
    en: 'Permissions: "{tag}" is not a known permission',
    cn: '权限：“{tag}”不是有效的权限',
  },
  ROLE_TAG_ABOVE_CEILING: {
    en: 'Permissions: "{tag}" cannot be given here; a role may only hold permissions that you hold and that the department administrator role above it holds',
    cn: '权限：无法授予“{tag}”；角色只能拥有您本人和其上级部门管理员角色都拥有的权限',
  },
  ROLE_ROOT_ADMIN_FIXED: {
    en: 'The company administrator role holds every permission and cannot be changed or deleted',
    cn: '企业管理员角色拥有全部权限，不能修改或删除',
  },
  ROLE_ADMIN_UNDELETABLE: {
    en: 'A department administrator role cannot be deleted; it goes with its department',
    cn: '部门管理员角色不能删除，它随部门一起删除',
  },
  ROLE_IN_USE: {
    en: 'This role is still held by {count} people; give them another role first',
    cn: '该角色仍有 {count} 人使用，请先为他们更换角色',
  },
  ROLE_OUT_OF_REACH: {
    en: 'You can manage only the roles of departments below your own (a department administrator also those of their own department)',
    cn: '您只能管理下级部门的角色（部门管理员还可管理本部门的角色）',
  },
  ROLE_ADMIN_OUT_OF_REACH: {
    en: 'Only an administrator of a higher department can change a department administrator role',
    cn: '只有上级部门的管理员才能修改部门管理员角色',
  },
  ROLE_OWN: { en: 'You cannot change the role you hold yourself', cn: '不能修改您自己的角色' },
  ROLE_NOT_OF_DEPARTMENT: {
    en: "Role: the role must belong to the person's department",
    cn: '角色：所选角色必须属于该人员所在的部门',
  },
  ROLE_ABOVE_CALLER: {
    en: 'Role: this role holds permissions you do not hold, so you cannot give it',
    cn: '角色：该角色拥有您不具备的权限，您无法授予',
  },
  ROLE_ADDED: { en: 'Role added', cn: '角色已添加' },
  ROLE_SAVED: { en: 'Role saved', cn: '角色已保存' },
  ROLE_DELETED: { en: 'Role deleted', cn: '角色已删除' },
  MEMBER_NOT_FOUND: { en: 'This person is not a member of the company', cn: '该人员不是本企业成员' },
  MEMBER_SELF: {
    en: 'You cannot change your own role or department, or remove yourself',
    cn: '不能更改自己的角色或部门，也不能移除自己',
  },
  MEMBER_IS_COMPANY_ADMIN: {
    en: 'The company administrator cannot be changed or removed',
    cn: '不能更改或移除企业管理员',
  },
  MEMBER_IS_LEGAL_PERSON: { en: 'The legal person of the company cannot be removed', cn: '不能移除企业法人' },
  MEMBER_ABOVE_CALLER: {
    en: 'This person holds permissions you do not hold, so you cannot change them',
    cn: '该人员拥有您不具备的权限，您无法更改',
  },
  MEMBER_IS_LEADER: {
    en: '{name} is the person in charge of "{department}"; transfer that first',
    cn: '{name} 是“{department}”的负责人，请先转让负责人',
  },
  ROLE_ASSIGNED: { en: 'Role changed', cn: '角色已更改' },
  MEMBER_MOVED: { en: 'Department changed', cn: '部门已更改' },
  MEMBER_REMOVED: { en: 'Removed from the company', cn: '已移出企业' },
} as const satisfies Catalogue;

/** Field labels of the org calls, so validation messages name the field. */
export const orgLabels: LabelCatalogue = {
  parentId: { en: 'Parent department', cn: '上级部门' },
  leaderId: { en: 'Person in charge', cn: '负责人' },
  imageUrl: { en: 'Department image', cn: '部门图片' },
  userId: { en: 'User', cn: '用户' },
  roleId: { en: 'Role', cn: '角色' },
  tags: { en: 'Permissions', cn: '权限' },
  approve: { en: 'Approval', cn: '审核结果' },
  includeChildren: { en: 'Include lower departments', cn: '包含下级部门' },
  days: { en: 'Days', cn: '天数' },
};
