import type { WireLanguage } from '@coldchain/contract';
import { accountLabels, accountMessages } from './catalogues/account';
import { alarmsLabels, alarmsMessages } from './catalogues/alarms';
import { auditLabels, auditMessages } from './catalogues/audit';
import { billingLabels, billingMessages } from './catalogues/billing';
import { calibrationLabels, calibrationMessages } from './catalogues/calibration';
import { cameraMessages, cameraRouteLabels } from './catalogues/camera';
import { creditsMessages, creditsRouteLabels } from './catalogues/credits';
import { dataCenterMessages, dataCenterRouteLabels } from './catalogues/data-center';
import { datavRouteLabels } from './catalogues/datav';
import { devicesLabels, devicesMessages } from './catalogues/devices';
import { equipmentLabels, equipmentMessages, equipmentRouteLabels } from './catalogues/equipment';
import { exportProgressLabels, exportProgressMessages } from './catalogues/export-progress';
import { invoicesMessages, invoicesRouteLabels } from './catalogues/invoices';
import { logisticsMessages, logisticsRouteLabels } from './catalogues/logistics';
import { openApiMessages, openApiRouteLabels } from './catalogues/open-api';
import { operationReportsLabels, operationReportsMessages } from './catalogues/operation-reports';
import { operatorMessages, operatorRouteLabels } from './catalogues/operator';
import { orgLabels, orgMessages } from './catalogues/org';
import { platformDockingMessages, platformDockingRouteLabels } from './catalogues/platform-docking';
import { profileLabels, profileMessages } from './catalogues/profile';
import { pushDockingMessages, pushDockingRouteLabels } from './catalogues/push-docking';
import { reportTasksLabels, reportTasksMessages, reportTasksRouteLabels } from './catalogues/report-tasks';
import { reportsLabels, reportsMessages } from './catalogues/reports';
import { signatureLabels, signatureMessages } from './catalogues/signature';
import { statisticsLabels, statisticsMessages } from './catalogues/statistics';

/**
 * Every message the server sends to a person, in English and Simplified Chinese. `{name}` is
 * replaced by the error's parameters. Keys are the stable AppError codes plus the validation
 * sentences (`validation.*`) and rule sentences (`rule.*`) of spec section 5.
 */
export const messages = {
  // Each area keeps its own catalogue file (catalogues/), so that areas grow without touching this one.
  ...orgMessages,
  ...accountMessages,
  ...auditMessages,
  ...devicesMessages,
  ...billingMessages,
  ...profileMessages,
  ...alarmsMessages,
  ...calibrationMessages,
  ...signatureMessages,
  ...equipmentMessages,
  ...reportTasksMessages,
  ...reportsMessages,
  ...operationReportsMessages,
  ...openApiMessages,
  ...pushDockingMessages,
  ...platformDockingMessages,
  ...statisticsMessages,
  ...exportProgressMessages,
  ...dataCenterMessages,
  ...creditsMessages,
  ...invoicesMessages,
  ...logisticsMessages,
  ...cameraMessages,
  ...operatorMessages,
  OK: { en: 'Success', cn: '操作成功' },
  LOGIN_EXPIRED: { en: 'Login expired, please log in again', cn: '登录已过期，请重新登录' },
  LOGIN_FAILED: { en: 'Account or password is incorrect', cn: '账号或密码错误' },
  ACCOUNT_DISABLED: { en: 'This account has been disabled', cn: '该账号已被停用' },
  NO_PERMISSION: { en: 'No permission for this service or operation', cn: '暂无该服务或操作的权限' },
  COMPANY_NOT_SELECTED: {
    en: 'Please create or join a company first',
    cn: '请先创建或加入企业',
  },
  NOT_FOUND: { en: 'The requested record does not exist', cn: '请求的记录不存在' },
  RATE_LIMITED: {
    en: 'Too many requests, please try again in {seconds} seconds',
    cn: '请求过于频繁，请 {seconds} 秒后再试',
  },
  MALFORMED_REQUEST: {
    en: 'Request error: the body is not valid JSON',
    cn: '请求错误：请求体不是合法的 JSON',
  },
  UNSUPPORTED_CONTENT_TYPE: {
    en: 'Request error: send the body as application/json',
    cn: '请求错误：请以 application/json 格式发送请求体',
  },
  PAYLOAD_TOO_LARGE: { en: 'The request body is too large', cn: '请求内容过大' },
  UNKNOWN_PATH: { en: 'Request address error: {path}', cn: '请求地址错误：{path}' },
  INTERNAL: { en: 'Internal server error, please try again later', cn: '服务器内部错误，请稍后再试' },
  SERIAL_UNAVAILABLE: {
    en: 'Serial number does not exist or is already used',
    cn: '序列号不存在或已被使用',
  },
  DEVICE_NOT_FOUND: { en: 'The device does not exist', cn: '设备不存在' },
  SENSOR_NOT_FOUND: { en: 'The sensor does not exist', cn: '传感器不存在' },
  CODE_TOO_SOON: {
    en: 'A code was sent less than a minute ago; ask again in {seconds} seconds',
    cn: '验证码已发送，请 {seconds} 秒后再试',
  },
  CODE_INVALID: {
    en: 'Verification code invalid or expired; request a new one',
    cn: '验证码无效或已过期，请重新获取',
  },
  CODE_TOO_MANY_TRIES: {
    en: 'Too many wrong codes; request a new one',
    cn: '验证码错误次数过多，请重新获取',
  },
  CODE_SENT_EMAIL: { en: 'The code was sent to your e-mail', cn: '验证码已发送至您的邮箱' },
  CODE_SENT_SMS: { en: 'The code was sent by SMS', cn: '验证码已通过短信发送' },
  ACCOUNT_NOT_FOUND: { en: 'This account is not registered', cn: '该账号未注册' },
  PASSWORD_RESET: {
    en: 'Password changed; please log in with the new password',
    cn: '密码已修改，请使用新密码登录',
  },
  ACCOUNT_EXISTS: { en: 'This account is already registered', cn: '该账号已注册' },
  REGISTERED: { en: 'Registration complete', cn: '注册成功' },
  COMPANY_CREATED: { en: 'Company created', cn: '企业创建成功' },
  FEEDBACK_SAVED: { en: 'Thank you for your feedback', cn: '感谢您的反馈' },
  COMPANY_SWITCHED: { en: 'Company switched', cn: '企业已切换' },
  LOGGED_OUT: { en: 'Logged out', cn: '已退出登录' },
  ALARM_NOT_FOUND: { en: 'The alarm does not exist', cn: '报警记录不存在' },
  ALARM_SETTING_NOT_FOUND: { en: 'The alarm setting does not exist', cn: '报警设置不存在' },
  ALARM_ALREADY_RESOLVED: {
    en: 'This alarm has already been resolved',
    cn: '该报警已处理，无需重复处理',
  },
  ALARM_EXPIRED: { en: 'This alarm has expired and can no longer be resolved', cn: '该报警已过期，无法处理' },
  NOTIFIER_NOT_MEMBER: {
    en: 'A selected notifier is not a member of this company',
    cn: '所选通知人不是本企业成员',
  },

  'validation.required': { en: '{field} is required', cn: '{field}不能为空' },
  'validation.type': { en: '{field} has the wrong type', cn: '{field}类型不正确' },
  'validation.tooShort': { en: '{field} must be at least {min} characters', cn: '{field}至少 {min} 个字符' },
  'validation.tooLong': { en: '{field} must be at most {max} characters', cn: '{field}最多 {max} 个字符' },
  'validation.tooSmall': { en: '{field} must be at least {min}', cn: '{field}不能小于 {min}' },
  'validation.tooBig': { en: '{field} must be at most {max}', cn: '{field}不能大于 {max}' },
  'validation.tooFewItems': { en: '{field} needs at least {min} items', cn: '{field}至少需要 {min} 项' },
  'validation.tooManyItems': { en: '{field} allows at most {max} items', cn: '{field}最多 {max} 项' },
  'validation.invalid': { en: '{field} is invalid', cn: '{field}格式不正确' },
  'validation.unknownField': { en: 'Unknown field: {field}', cn: '未知字段：{field}' },
  'validation.unstorableText': {
    en: '{field} contains a character that cannot be saved (a NUL character or a broken Unicode character)',
    cn: '{field}包含无法保存的字符（空字符或不完整的 Unicode 字符）',
  },
  'rule.account': {
    en: '{field}: enter a correct mobile number or e-mail address',
    cn: '{field}：请输入正确的手机号或邮箱',
  },
  'rule.feedbackImages': { en: 'At most 3 images can be attached', cn: '最多上传 3 张图片' },
  'rule.id': { en: '{field} is not a valid ID', cn: '{field}不是有效的 ID' },
  'rule.timeRange': { en: '{field} must be after the start time', cn: '{field}必须晚于开始时间' },
  'rule.instant': {
    en: '{field} must be a time before the year 10000',
    cn: '{field}必须是公元 10000 年之前的时间',
  },
  'rule.alarmVerifyInterval': {
    en: 'The alarm verification interval must be at most the data upload interval',
    cn: '报警验证间隔不能大于数据上传间隔',
  },
  'rule.minMax': { en: '{field} must be greater than the minimum', cn: '{field}必须大于最小值' },
  'rule.preAlarm': {
    en: 'The pre-alarm value must lie between the alarm minimum and maximum',
    cn: '预警值必须介于报警下限和上限之间',
  },
  'rule.limitRequired': {
    en: '{field}: enter an upper or a lower limit',
    cn: '{field}：请至少填写上限或下限',
  },
  'rule.hysteresis': {
    en: 'The hysteresis band leaves no safe range between the limits',
    cn: '回差过大，上下限之间已无安全范围',
  },
  'rule.repeatedItem': { en: '{field} contains a repeated item', cn: '{field}包含重复项' },
  'rule.periodsRequired': {
    en: 'Select at least one alarm time period',
    cn: '请至少选择一个报警时间段',
  },
  'rule.repeatedTimePoint': { en: 'Repeated time point selected', cn: '选择的时间点重复' },
  'rule.timePoint': { en: '{field}: enter a time as HH:mm', cn: '{field}：请按 HH:mm 格式填写时间' },
  'rule.timeZone': { en: '{field} is not a known time zone', cn: '{field}不是有效的时区' },
  'rule.alarmListTarget': { en: 'Select a device or a sensor', cn: '请选择设备或传感器' },
  'rule.code': { en: '{field} must be 6 digits', cn: '{field}须为 6 位数字' },
  'rule.required': { en: '{field} is required', cn: '{field}不能为空' },
  'rule.passwordsDiffer': { en: 'Both Password Enter Not Match', cn: '两次输入的密码不一致' },
  'rule.password': {
    en: '{field} must be 8-20 English letters and digits',
    cn: '{field}须为 8-20 位英文字母和数字',
  },
} as const satisfies Record<string, Record<WireLanguage, string>>;

export type MessageKey = keyof typeof messages;

/** Labels of fields every area shares (paging, names, times, alarm rule fields). */
export const sharedFieldLabels: Record<string, Record<WireLanguage, string>> = {
  account: { en: 'Account', cn: '账号' },
  password: { en: 'Password', cn: '密码' },
  type: { en: 'Login type', cn: '登录类型' },
  platform: { en: 'Platform', cn: '平台' },
  id: { en: 'ID', cn: 'ID' },
  content: { en: 'Content', cn: '内容' },
  category: { en: 'Category', cn: '类别' },
  imgUrl: { en: 'Images', cn: '图片' },
  source: { en: 'Source', cn: '来源' },
  body: { en: 'Request body', cn: '请求体' },
  code: { en: 'Verification code', cn: '验证码' },
  confirmPassword: { en: 'Confirm password', cn: '确认密码' },
  ticket: { en: 'Verification', cn: '验证凭据' },
  industry: { en: 'Industry', cn: '行业' },
  serial: { en: 'Serial number', cn: '序列号' },
  name: { en: 'Name', cn: '名称' },
  departmentId: { en: 'Department', cn: '部门' },
  groupId: { en: 'Group', cn: '分组' },
  pageNum: { en: 'Page number', cn: '页码' },
  pageSize: { en: 'Page size', cn: '每页条数' },
  state: { en: 'State', cn: '状态' },
  keyword: { en: 'Keyword', cn: '关键字' },
  sensorId: { en: 'Sensor', cn: '传感器' },
  startTime: { en: 'Start time', cn: '开始时间' },
  endTime: { en: 'End time', cn: '结束时间' },
  maxPoints: { en: 'Maximum points', cn: '最大点数' },
  activationEnergy: { en: 'Activation energy', cn: '活化能' },
  recordInterval: { en: 'Normal recording interval', cn: '正常记录间隔' },
  uploadInterval: { en: 'Data upload interval', cn: '数据上传间隔' },
  alarmVerifyInterval: { en: 'Alarm verification interval', cn: '报警验证间隔' },
  offlineJudgement: { en: 'Offline judgement count', cn: '离线判断次数' },
  hostAddress: { en: 'Host address', cn: '主机地址' },
  subAddress: { en: 'Sub-address', cn: '子地址' },
  remark: { en: 'Remarks', cn: '备注' },
  region: { en: 'Region', cn: '所在地区' },
  address: { en: 'Detailed address', cn: '详细地址' },
  carrier: { en: 'Carrier', cn: '载体' },
  targetId: { en: 'Monitor or sensor', cn: '监测设备或传感器' },
  level: { en: 'Alarm level', cn: '报警等级' },
  alarmType: { en: 'Alarm type', cn: '报警类型' },
  min: { en: 'Lower limit', cn: '下限' },
  max: { en: 'Upper limit', cn: '上限' },
  preMin: { en: 'Pre-alarm lower limit', cn: '预警下限' },
  preMax: { en: 'Pre-alarm upper limit', cn: '预警上限' },
  delaySeconds: { en: 'Alarm delay', cn: '报警延时' },
  hysteresis: { en: 'Hysteresis', cn: '回差' },
  repeat: { en: 'Max alarm count', cn: '最大报警次数' },
  repeatIntervalSeconds: { en: 'Repeat interval', cn: '重复报警间隔' },
  escalateAfterSeconds: { en: 'Escalation time', cn: '升级时间' },
  channels: { en: 'Notification channels', cn: '通知方式' },
  timeSlot: { en: 'Alarm time slot', cn: '报警时段' },
  periods: { en: 'Time periods', cn: '时间段' },
  start: { en: 'Period start', cn: '开始时间点' },
  end: { en: 'Period end', cn: '结束时间点' },
  weekdays: { en: 'Weekdays', cn: '星期' },
  timeZone: { en: 'Time zone', cn: '时区' },
  notifierIds: { en: 'Notifiers', cn: '通知人' },
  enabled: { en: 'Enabled', cn: '启用' },
  deviceId: { en: 'Device', cn: '设备' },
  resolveState: { en: 'Resolve state', cn: '处理状态' },
  resolveType: { en: 'Resolve type', cn: '处理类型' },
  cause: { en: 'Cause', cn: '原因' },
  action: { en: 'Corrective action', cn: '处理措施' },
};

/** Each area's own labels; a name may appear in two only with the same text (messages.test.ts). */
export const areaFieldLabels = {
  org: orgLabels,
  account: accountLabels,
  audit: auditLabels,
  devices: devicesLabels,
  billing: billingLabels,
  profile: profileLabels,
  alarms: alarmsLabels,
  calibration: calibrationLabels,
  signature: signatureLabels,
  equipment: equipmentLabels,
  reportTasks: reportTasksLabels,
  reports: reportsLabels,
  operationReports: operationReportsLabels,
  statistics: statisticsLabels,
  exportProgress: exportProgressLabels,
};

/** Field labels used by validation messages, so that the message names the field as a user knows it. */
export const fieldLabels: Record<string, Record<WireLanguage, string>> = Object.assign(
  {},
  sharedFieldLabels,
  ...Object.values(areaFieldLabels),
);

export function translate(
  key: MessageKey,
  language: WireLanguage,
  params: Record<string, string | number> = {},
): string {
  const template: string = messages[key][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * Labels that hold for one call only (by its route path), for a field name that means something
 * else elsewhere. Looked up before the shared labels.
 */
export const routeFieldLabels: Record<string, Record<string, Record<WireLanguage, string>>> = {
  ...equipmentRouteLabels,
  ...reportTasksRouteLabels,
  ...datavRouteLabels,
  ...dataCenterRouteLabels,
  ...openApiRouteLabels,
  ...pushDockingRouteLabels,
  ...platformDockingRouteLabels,
  ...creditsRouteLabels,
  ...invoicesRouteLabels,
  ...logisticsRouteLabels,
  ...cameraRouteLabels,
  ...operatorRouteLabels,
};

export function fieldLabel(path: string, language: WireLanguage, route?: string): string {
  // An array element (`channels.0`, `attributes.1.name`) is named by its field, not its index:
  // `attributes.name` first, then `name`.
  const parts = path.split('.').filter((part) => !/^\d+$/.test(part));
  const candidates = [path, parts.join('.'), parts.at(-1) ?? path];
  const scoped = route ? routeFieldLabels[route] : undefined;
  for (const labels of [scoped, fieldLabels]) {
    for (const candidate of candidates) {
      const label = labels?.[candidate]?.[language];
      if (label) return label;
    }
  }
  return path;
}
