import type { WireLanguage } from '@coldchain/contract';

/**
 * Every message the server sends to a person, in English and Simplified Chinese. `{name}` is
 * replaced by the error's parameters. Keys are the stable AppError codes plus the validation
 * sentences (`validation.*`) and rule sentences (`rule.*`) of spec section 5.
 */
export const messages = {
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
  FEEDBACK_SAVED: { en: 'Thank you for your feedback', cn: '感谢您的反馈' },
  COMPANY_SWITCHED: { en: 'Company switched', cn: '企业已切换' },
  LOGGED_OUT: { en: 'Logged out', cn: '已退出登录' },

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
  'rule.account': {
    en: '{field}: enter a correct mobile number or e-mail address',
    cn: '{field}：请输入正确的手机号或邮箱',
  },
  'rule.feedbackImages': { en: 'At most 3 images can be attached', cn: '最多上传 3 张图片' },
  'rule.id': { en: '{field} is not a valid ID', cn: '{field}不是有效的 ID' },
  'rule.timeRange': { en: '{field} must be after the start time', cn: '{field}必须晚于开始时间' },
  'rule.alarmVerifyInterval': {
    en: 'The alarm verification interval must be at most the data upload interval',
    cn: '报警验证间隔不能大于数据上传间隔',
  },
  'rule.password': {
    en: '{field} must be 8-20 English letters and digits',
    cn: '{field}须为 8-20 位英文字母和数字',
  },
} as const satisfies Record<string, Record<WireLanguage, string>>;

export type MessageKey = keyof typeof messages;

/** Field labels used by validation messages, so that the message names the field as a user knows it. */
export const fieldLabels: Record<string, Record<WireLanguage, string>> = {
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
  recordInterval: { en: 'Normal recording interval', cn: '正常记录间隔' },
  uploadInterval: { en: 'Data upload interval', cn: '数据上传间隔' },
  alarmVerifyInterval: { en: 'Alarm verification interval', cn: '报警验证间隔' },
  offlineJudgement: { en: 'Offline judgement count', cn: '离线判断次数' },
  hostAddress: { en: 'Host address', cn: '主机地址' },
  subAddress: { en: 'Sub-address', cn: '子地址' },
  remark: { en: 'Remarks', cn: '备注' },
  region: { en: 'Region', cn: '所在地区' },
  address: { en: 'Detailed address', cn: '详细地址' },
};

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

export function fieldLabel(path: string, language: WireLanguage): string {
  const last = path.split('.').pop() ?? path;
  return fieldLabels[path]?.[language] ?? fieldLabels[last]?.[language] ?? path;
}
