import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the devices area, in English and Simplified Chinese (keys are AppError codes). */
export const devicesMessages = {
  'rule.groupName': { en: '{field} must be 2-20 characters', cn: '{field}须为 2-20 个字符' },
  // Spec section 8, word for word: an empty selection or a missing period.
  'rule.selectDevices': {
    en: 'Select at least one device, time period or record',
    cn: '请至少选择一个设备、时间段或记录',
  },
  'rule.selectUsers': { en: 'Select at least one person', cn: '请至少选择一个人员' },
  'rule.permissionLevel': {
    en: '{field} must be none, view or edit',
    cn: '{field}须为无权限、查看或编辑',
  },
  'rule.exportFormat': {
    en: 'Select a file format: xlsx, csv or pdf',
    cn: '请选择文件格式：xlsx、csv 或 pdf',
  },
  'rule.exportPeriod': {
    en: 'The export period may cover at most 366 days',
    cn: '导出时间段最长为 366 天',
  },
  GROUP_NOT_FOUND: { en: 'The group does not exist', cn: '分组不存在' },
  GROUP_NAME_TAKEN: {
    en: 'A group with this name already exists in the department',
    cn: '该部门已存在同名分组',
  },
  GROUP_MOVE_ACROSS_DEPARTMENTS: {
    en: 'A group cannot be moved to another department',
    cn: '分组不能跨部门移动',
  },
  GROUP_MOVE_TO_COMPANY: {
    en: 'A group cannot be moved to the company',
    cn: '分组不能移动到企业',
  },
  GROUP_MOVE_INTO_ITSELF: {
    en: 'A group cannot be moved into itself or one of its sub-groups',
    cn: '分组不能移动到自身或其下级分组',
  },
  GROUP_NOT_IN_DEPARTMENT: {
    en: "The group must belong to the device's department",
    cn: '分组必须属于设备所在部门',
  },
  PERMISSION_USER_OUT_OF_SCOPE: {
    en: 'Device permissions can only be given to people of your departments',
    cn: '只能为本部门及下级部门的人员设置设备权限',
  },
  EXPORT_TOO_LARGE: {
    en: 'Too many records to export ({count}); choose fewer devices or a shorter period',
    cn: '导出记录过多（{count} 条），请减少设备或缩短时间段',
  },
} as const satisfies Catalogue;

/** Field labels of the devices area's requests, so validation messages name the field. */
export const devicesLabels: LabelCatalogue = {
  deviceIds: { en: 'Devices', cn: '设备' },
  userIds: { en: 'People', cn: '人员' },
  permission: { en: 'Permission', cn: '权限' },
  format: { en: 'File format', cn: '文件格式' },
};
