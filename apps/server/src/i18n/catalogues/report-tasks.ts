import type { Catalogue, LabelCatalogue } from './types';

/** Messages of data report backup tasks, in English and Simplified Chinese (keys are AppError codes). */
export const reportTasksMessages = {
  'rule.reportType': {
    en: 'Select a report type: history data, alarm records, equipment records or audit trail',
    cn: '请选择报表类型：历史数据、报警记录、设备记录或审计追踪',
  },
  'rule.reportFrequency': {
    en: 'Select a frequency: daily, weekly or monthly',
    cn: '请选择频率：每天、每周或每月',
  },
  'rule.reportFormat': {
    en: 'Select a data format: pdf, xlsx or csv',
    cn: '请选择数据格式：pdf、xlsx 或 csv',
  },
  'rule.reportDevices': { en: 'Select at least one device', cn: '请至少选择一台设备' },
  'rule.reportEquipment': { en: 'Select one piece of equipment', cn: '请选择一台冷链设备' },
  'rule.reportRecipients': {
    en: 'Add at least one recipient or e-mail address',
    cn: '请至少添加一位接收人或一个邮箱地址',
  },
  REPORT_TASK_NOT_FOUND: { en: 'The backup task does not exist', cn: '备份任务不存在' },
  REPORT_RUN_NOT_FOUND: { en: 'The backup run does not exist', cn: '备份记录不存在' },
  REPORT_FILE_GONE: { en: 'The backup file is no longer available', cn: '备份文件已不存在' },
  REPORT_GENERATED_BY: { en: 'Backup task "{name}"', cn: '备份任务“{name}”' },
  REPORT_RECIPIENT_NOT_MEMBER: {
    en: 'A recipient is not a member of this company',
    cn: '接收人不是本企业成员',
  },
  REPORT_EQUIPMENT_NOT_FOUND: { en: 'The equipment does not exist', cn: '冷链设备不存在' },
  REPORT_OWNER_GONE: {
    en: 'The owner of this task has left the company; save the task again to take it over',
    cn: '该任务的创建人已离开企业，请重新保存任务以接管',
  },
  REPORT_OWNER_NO_RIGHT: {
    en: 'The owner of this task no longer has the right to this data',
    cn: '该任务的创建人已无权访问这些数据',
  },
  REPORT_MAIL_SUBJECT: { en: 'Data backup "{name}": {period}', cn: '数据备份“{name}”：{period}' },
  REPORT_MAIL_ATTACHED: {
    en: 'The backup file of "{name}" for {period} is attached ({file}, {size}).',
    cn: '附件为“{name}”在 {period} 期间的备份文件（{file}，{size}）。',
  },
  REPORT_MAIL_LINK: {
    en: 'The backup file of "{name}" for {period} ({file}, {size}) is too large to attach. Download it here until {expires}:\n{url}',
    cn: '“{name}”在 {period} 期间的备份文件（{file}，{size}）过大，无法作为附件发送。请在 {expires} 前通过以下链接下载：\n{url}',
  },
} as const satisfies Catalogue;

/** Field labels of backup task requests, so validation messages name the field. */
export const reportTasksLabels: LabelCatalogue = {
  frequency: { en: 'Frequency', cn: '频率' },
  deviceIds: { en: 'Devices', cn: '设备' },
  equipmentIds: { en: 'Equipment', cn: '冷链设备' },
  recipientIds: { en: 'Recipients', cn: '接收人' },
  emails: { en: 'E-mail addresses', cn: '邮箱地址' },
  taskId: { en: 'Backup task', cn: '备份任务' },
};

/** `type` means the report type in these calls, not the login type. */
export const reportTasksRouteLabels = {
  '/api/report/saveTask': { type: { en: 'Report type', cn: '报表类型' } },
};
