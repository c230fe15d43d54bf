import type { Catalogue, LabelCatalogue } from './types';

/** Messages of departments, invitations, joining, roles and personnel (keys are AppError codes). */
export const orgMessages = {
  'rule.nameLength': {
    en: '{field} must be 2-20 letters and digits, or 2-100 characters in Chinese',
    cn: '{field}须为 2-20 位英文字母和数字，或 2-100 个中文字符',
  },
  'rule.organizationName': { en: '{field} must be 2-20 characters', cn: '{field}须为 2-20 个字符' },
  'rule.departmentCode': { en: '{field} must be 12 digits', cn: '{field}须为 12 位数字' },
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
