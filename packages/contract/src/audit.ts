import { z } from 'zod';
import { ExportProgressField } from './export-progress';
import { EpochMs, MAX_INSTANT_MS } from './rules';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

const PageQuery = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  startTime: EpochMs.optional(),
  endTime: EpochMs.optional(),
};

const UserId = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** `/api/audit/pageOperationLog` */
export const PageOperationLogRequest = z.object({
  ...PageQuery,
  action: z.string().trim().max(60).optional(),
  /** Only the changes made by this person. */
  userId: UserId.optional(),
  /** Part of the target's id or type (`device`, `1024`). */
  target: z.string().trim().max(100).optional(),
});
export type PageOperationLogRequest = z.infer<typeof PageOperationLogRequest>;

/** Login status filter: 1 success, 0 failure. */
const LoginStatus = z.coerce.number().int().min(0).max(1).optional();

/** `/api/userLoginLog/pageUserLog` (own logins) and `auditPageUserLog` (everyone in the company). */
export const PageLoginLogRequest = z.object({
  ...PageQuery,
  /** Part of the account or of the user's name. */
  account: z.string().trim().max(100).optional(),
  status: LoginStatus,
});
export type PageLoginLogRequest = z.infer<typeof PageLoginLogRequest>;

export interface LoginLogEntry {
  id: string;
  userId: string | null;
  account: string;
  userName: string;
  platform: number;
  method: string;
  status: number;
  reason: string;
  ip: string;
  location: string;
  time: number;
}

/** One entry of the operation log as `/api/audit/pageOperationLog` lists it. */
export interface OperationLogEntry {
  id: string;
  seq: number;
  userId: string | null;
  /** The actor's name; empty for the platform itself. */
  userName: string;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  reason: string;
  ip: string;
  time: number;
}

/** One broken link found by `/api/audit/verifyChain`. */
export interface ChainProblem {
  seq: number;
  /**
   * `edited`: the entry no longer matches its own hash; `missing`: entries before it are gone
   * (or, at the chain head's position, entries up to it: a deleted end of the chain); `relinked`:
   * the entry before it was rewritten together with a new hash.
   */
  kind: 'edited' | 'missing' | 'relinked';
  detail: string;
  /** When the entry at `seq` was written (epoch ms; for a deleted end, the last entry left's). */
  time: number;
  /** For `missing`: the first and last missing positions. */
  missingFrom?: number;
  missingTo?: number;
}

export interface ChainVerification {
  ok: boolean;
  checked: number;
  problems: ChainProblem[];
}

export const AuditExportFormats = ['xlsx', 'csv', 'pdf'] as const;
export type AuditExportFormat = (typeof AuditExportFormats)[number];
/** Longest period one audit export may cover, and most rows in one file. */
export const AUDIT_EXPORT_MAX_DAYS = 366;
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

/** Spec section 5, "Export needs a time period and a file format"; the message is section 8's. */
const ExportInstant = z.coerce
  .number({ error: 'rule.selectDevices' })
  .int()
  .nonnegative()
  .max(MAX_INSTANT_MS, { error: 'rule.instant' });
const ExportPeriod = {
  startTime: ExportInstant,
  endTime: ExportInstant,
  format: z.enum(AuditExportFormats, { error: 'rule.exportFormat' }),
  /** IANA zone the times in the file are written in; UTC when absent. */
  timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).optional(),
  /** Needed while the company's audit signature is on (docs/decisions.md). */
  signPassword: SignPasswordField,
  progressId: ExportProgressField,
};

function periodRules<T extends z.ZodType<{ startTime: number; endTime: number }>>(schema: T) {
  return schema
    .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] })
    .refine((r) => r.endTime - r.startTime <= AUDIT_EXPORT_MAX_DAYS * 86_400_000, {
      error: 'rule.exportPeriod',
      path: ['endTime'],
    });
}

/** `/api/userLoginLog/exportUserLog` and `auditExportUserLog`: the page's filters plus a period and format. */
export const ExportLoginLogRequest = periodRules(
  z.object({
    ...ExportPeriod,
    account: z.string().trim().max(100).optional(),
    status: LoginStatus,
  }),
);
export type ExportLoginLogRequest = z.infer<typeof ExportLoginLogRequest>;

/** `/api/audit/exportOperationLog` */
export const ExportOperationLogRequest = periodRules(
  z.object({
    ...ExportPeriod,
    action: z.string().trim().max(60).optional(),
    userId: UserId.optional(),
    target: z.string().trim().max(100).optional(),
  }),
);
export type ExportOperationLogRequest = z.infer<typeof ExportOperationLogRequest>;

/**
 * Names of the audited actions (`recordAudit` `action:` strings across the server), in both
 * languages, so the operation log screen and its export say the same thing. An action missing
 * here is shown as its code.
 */
export const auditActionTitles: Record<string, { en: string; cn: string }> = {
  'alarm.resolve': { en: 'Resolve alarm', cn: '处理报警' },
  'alarm.export': { en: 'Export alarm records', cn: '导出报警记录' },
  // Written by saving (disabling, editing) or deleting an alarm setting, once per open alarm it ends.
  'alarm.endByRule': { en: 'End alarm by rule change', cn: '因规则变更结束报警' },
  'alarmSetting.create': { en: 'Add alarm setting', cn: '新增报警设置' },
  'alarmSetting.edit': { en: 'Edit alarm setting', cn: '编辑报警设置' },
  'alarmSetting.delete': { en: 'Delete alarm setting', cn: '删除报警设置' },
  'company.create': { en: 'Create company', cn: '创建企业' },
  'department.add': { en: 'Add department', cn: '新增部门' },
  'department.edit': { en: 'Edit department', cn: '编辑部门' },
  'department.delete': { en: 'Delete department', cn: '删除部门' },
  'department.transferLeader': { en: 'Transfer person in charge', cn: '移交负责人' },
  'device.add': { en: 'Add device', cn: '添加设备' },
  'device.edit': { en: 'Edit device', cn: '编辑设备' },
  'device.resetKey': { en: 'Reset device key', cn: '重置设备密钥' },
  'device.setRemark': { en: 'Set device remark', cn: '设置设备备注' },
  'sensor.edit': { en: 'Edit sensor', cn: '编辑传感器' },
  'group.add': { en: 'Add group', cn: '新增分组' },
  'group.edit': { en: 'Edit group', cn: '编辑分组' },
  'group.delete': { en: 'Delete group', cn: '删除分组' },
  'group.move': { en: 'Move group', cn: '移动分组' },
  'invitation.create': { en: 'Create invitation', cn: '创建邀请' },
  'joinRequest.apply': { en: 'Apply to join', cn: '申请加入' },
  'joinRequest.approve': { en: 'Approve application', cn: '通过申请' },
  'joinRequest.reject': { en: 'Reject application', cn: '拒绝申请' },
  'member.assignRole': { en: 'Assign role', cn: '分配角色' },
  'member.joinByInvite': { en: 'Join by invitation', cn: '通过邀请加入' },
  'member.move': { en: 'Move person to department', cn: '调整人员部门' },
  'member.remove': { en: 'Remove person', cn: '移除人员' },
  'role.add': { en: 'Add role', cn: '新增角色' },
  'role.edit': { en: 'Edit role', cn: '编辑角色' },
  'role.delete': { en: 'Delete role', cn: '删除角色' },
  'device.transfer': { en: 'Transfer device', cn: '转移设备' },
  'device.permission': { en: 'Set device permissions', cn: '设置设备权限' },
  'device.exportData': { en: 'Export device data', cn: '导出设备数据' },
  'calibration.add': { en: 'Add calibration record', cn: '新增校准记录' },
  'calibration.delete': { en: 'Delete calibration record', cn: '删除校准记录' },
  'equipmentType.save': { en: 'Save equipment type', cn: '保存设备类型' },
  'equipmentType.delete': { en: 'Delete equipment type', cn: '删除设备类型' },
  'equipment.save': { en: 'Save cold-chain equipment', cn: '保存冷链设备' },
  'equipment.repair': { en: 'Add equipment repair record', cn: '新增设备维修记录' },
  'equipment.maintenance': { en: 'Add equipment maintenance record', cn: '新增设备保养记录' },
  'equipment.scrap': { en: 'Scrap or move out equipment', cn: '设备报废或移出' },
  'equipment.transfer': { en: 'Transfer equipment', cn: '设备转移' },
  'equipment.patrol': { en: 'Add patrol record', cn: '新增巡检记录' },
  'patrolPlan.save': { en: 'Save patrol plan', cn: '保存巡检计划' },
  'patrolPlan.delete': { en: 'Delete patrol plan', cn: '删除巡检计划' },
  'reportTask.add': { en: 'Add data report backup task', cn: '新增数据报表备份任务' },
  'reportTask.edit': { en: 'Edit data report backup task', cn: '编辑数据报表备份任务' },
  'reportTask.delete': { en: 'Delete data report backup task', cn: '删除数据报表备份任务' },
  'reportTask.run': { en: 'Run data report backup task', cn: '运行数据报表备份任务' },
  'operationReportTask.add': { en: 'Add operation report task', cn: '新增运维报告任务' },
  'operationReportTask.edit': { en: 'Edit operation report task', cn: '编辑运维报告任务' },
  'operationReportTask.delete': { en: 'Delete operation report task', cn: '删除运维报告任务' },
  'operationReportTask.run': { en: 'Run operation report task', cn: '运行运维报告任务' },
  'company.rename': { en: 'Rename company', cn: '修改企业名称' },
  'company.edit': { en: 'Edit company information', cn: '编辑企业信息' },
  'company.passwordRenewal': { en: 'Set password renewal', cn: '设置定期更换密码' },
  'company.auditSignature': { en: 'Set audit signature', cn: '设置审计签名' },
  'member.exportExcel': { en: 'Set export permission', cn: '设置导出权限' },
  'user.signatureLocked': { en: 'Signing locked after wrong passwords', cn: '签名密码多次错误已锁定' },
  'member.leave': { en: 'Leave company', cn: '退出企业' },
  'user.updateProfile': { en: 'Update personal information', cn: '修改个人信息' },
  'user.updatePassword': { en: 'Change password', cn: '修改密码' },
  'user.setSignPassword': { en: 'Set signature password', cn: '设置签名密码' },
  'user.changeSignPassword': { en: 'Change signature password', cn: '修改签名密码' },
  'user.bindWeChat': { en: 'Bind WeChat', cn: '绑定微信' },
  'user.unbindWeChat': { en: 'Unbind WeChat', cn: '解绑微信' },
  'user.unbindWeChatOfficial': { en: 'Unbind WeChat official account', cn: '解绑微信公众号' },
  'user.cancelInactive': { en: 'Cancel inactive account', cn: '注销长期未登录账号' },
  'feedback.add': { en: 'Send feedback', cn: '提交反馈' },
  'notice.read': { en: 'Read notice', cn: '阅读通知' },
  'notice.readAll': { en: 'Read all notices', cn: '全部已读' },
  'notice.delete': { en: 'Delete notice', cn: '删除通知' },
  'audit.exportOperationLog': { en: 'Export operation log', cn: '导出操作日志' },
  'audit.exportLoginLog': { en: 'Export login log', cn: '导出登录日志' },
  'order.renewal': { en: 'Order device renewal', cn: '设备续费下单' },
  'order.recovery': { en: 'Order data recovery', cn: '数据恢复下单' },
  'order.cancel': { en: 'Cancel order', cn: '取消订单' },
  'order.approve': { en: 'Approve order', cn: '审核通过订单' },
  'order.reject': { en: 'Reject order', cn: '驳回订单' },
  'credit.exportLedger': { en: 'Export message credit ledger', cn: '导出消息余额流水' },
  'order.credits': { en: 'Order message credits', cn: '消息充值下单' },
  'order.payByTransfer': { en: 'Submit bank transfer proof', cn: '提交银行转账凭证' },
  'order.setDueDate': { en: "Set an order's due date", cn: '设置订单到期日' },
  'order.payOnline': { en: 'Start online payment', cn: '发起在线支付' },
  'invoice.apply': { en: 'Apply for invoice', cn: '申请开票' },
  'invoice.cancel': { en: 'Cancel invoice application', cn: '取消发票申请' },
  'invoice.issue': { en: 'Issue invoice', cn: '开具发票' },
  'invoice.reject': { en: 'Reject invoice application', cn: '驳回发票申请' },
  'device.pushParameters': { en: 'Push device parameters', cn: '下发设备参数' },
  'device.parametersApplied': { en: 'Device applied parameters', cn: '设备已应用参数' },
  'report.sensorReport': { en: 'Generate sensor report', cn: '生成传感器报告' },
  'report.equipmentReport': { en: 'Generate equipment report', cn: '生成冷链设备报告' },
  'openApi.createKey': { en: 'Create open API key', cn: '创建开放接口密钥' },
  'openApi.revokeKey': { en: 'Revoke open API key', cn: '吊销开放接口密钥' },
  'openApi.setDevices': { en: 'Set open devices of a key', cn: '设置密钥的开放设备' },
  'push.saveUrl': { en: 'Save push address', cn: '保存推送地址' },
  'push.setDevices': { en: 'Set devices of a push address', cn: '设置推送地址的设备' },
  'push.testUrl': { en: 'Test push address', cn: '测试推送地址' },
  'push.stopUrl': { en: 'Stop push address', cn: '停止推送地址' },
  'platformDock.apply': { en: 'Apply for platform docking', cn: '申请平台对接' },
  'platformDock.setDevices': { en: 'Set monitors of a platform docking', cn: '设置平台对接的监测设备' },
  'platformDock.stop': { en: 'Stop platform docking', cn: '停止平台对接' },
  'platformDock.enable': { en: 'Enable platform docking (supplier)', cn: '启用平台对接（供应商）' },
  'platformDock.refuse': { en: 'Refuse platform docking (supplier)', cn: '拒绝平台对接（供应商）' },
  'operator.savePlatform': { en: 'Save docking platform (supplier)', cn: '保存对接平台（供应商）' },
  'statistics.export': { en: 'Export statistics', cn: '导出统计数据' },
  'logisticsAddress.add': { en: 'Add logistics address', cn: '新增物流地址' },
  'logisticsAddress.edit': { en: 'Edit logistics address', cn: '编辑物流地址' },
  'logisticsAddress.delete': { en: 'Delete logistics address', cn: '删除物流地址' },
  'logisticsDelivery.add': { en: 'Add delivery order', cn: '新增运单' },
  'logisticsDelivery.edit': { en: 'Edit delivery order', cn: '编辑运单' },
  'logisticsDelivery.depart': { en: 'Depart delivery order', cn: '运单发车' },
  'logisticsDelivery.arrive': { en: 'Delivery order arrived', cn: '运单到达' },
  'logisticsDelivery.cancel': { en: 'Cancel delivery order', cn: '取消运单' },
  'logisticsDelivery.receive': { en: 'Receive delivery order', cn: '签收运单' },
  'logisticsDelivery.receiveByLink': { en: 'Receive delivery order by link', cn: '通过链接签收运单' },
  'logisticsDelivery.sendLink': { en: 'Send receipt link', cn: '发送签收链接' },
  'logisticsDelivery.note': { en: 'Download delivery note', cn: '下载送货单' },
  'cameraAccount.add': { en: 'Add camera platform account', cn: '新增摄像头平台账号' },
  'cameraAccount.edit': { en: 'Edit camera platform account', cn: '编辑摄像头平台账号' },
  'cameraAccount.delete': { en: 'Delete camera platform account', cn: '删除摄像头平台账号' },
  'camera.import': { en: 'Import cameras from a platform', cn: '从平台导入摄像头' },
  'camera.add': { en: 'Add camera', cn: '新增摄像头' },
  'camera.edit': { en: 'Edit camera', cn: '编辑摄像头' },
  'camera.delete': { en: 'Delete camera', cn: '删除摄像头' },
  // The operator console (modules/operator): written in the company's trail, or the platform's (0).
  'operator.setServices': { en: 'Set services (supplier)', cn: '设置服务（供应商）' },
  'operator.grantCredits': { en: 'Grant message credit (supplier)', cn: '赠送短信额度（供应商）' },
  'operator.disableCompany': { en: 'Disable company (supplier)', cn: '停用企业（供应商）' },
  'operator.enableCompany': { en: 'Enable company (supplier)', cn: '启用企业（供应商）' },
  'operator.viewDevices': {
    en: 'View devices under support access (supplier)',
    cn: '技术支持查看设备（供应商）',
  },
  'operator.importInventory': { en: 'Import device inventory', cn: '导入设备库存' },
  'operator.add': { en: 'Make platform operator', cn: '设为平台运营人员' },
  'operator.remove': { en: 'Remove platform operator', cn: '取消平台运营人员' },
  'company.grantSupportAccess': { en: 'Grant support access', cn: '授予技术支持访问' },
  'company.revokeSupportAccess': { en: 'Revoke support access', cn: '撤销技术支持访问' },
};

/** Names of the kinds of thing an audited action changes. */
export const auditTargetTitles: Record<string, { en: string; cn: string }> = {
  alarm: { en: 'Alarm', cn: '报警' },
  alarmSetting: { en: 'Alarm setting', cn: '报警设置' },
  company: { en: 'Company', cn: '企业' },
  department: { en: 'Department', cn: '部门' },
  device: { en: 'Device', cn: '设备' },
  calibration: { en: 'Calibration record', cn: '校准记录' },
  group: { en: 'Group', cn: '分组' },
  joinRequest: { en: 'Application', cn: '加入申请' },
  role: { en: 'Role', cn: '角色' },
  user: { en: 'Person', cn: '人员' },
  feedback: { en: 'Feedback', cn: '反馈' },
  notice: { en: 'Notice', cn: '通知' },
  invitation: { en: 'Invitation', cn: '邀请' },
  auditLog: { en: 'Audit trail', cn: '审计追踪' },
  order: { en: 'Order', cn: '订单' },
  report: { en: 'Report', cn: '报告' },
  logisticsAddress: { en: 'Logistics address', cn: '物流地址' },
  logisticsDelivery: { en: 'Delivery order', cn: '运单' },
  inventory: { en: 'Device inventory', cn: '设备库存' },
};
