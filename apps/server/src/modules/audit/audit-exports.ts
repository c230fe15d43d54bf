import {
  AUDIT_EXPORT_MAX_ROWS,
  auditActionTitles,
  auditTargetTitles,
  type ExportLoginLogRequest,
  type ExportOperationLogRequest,
  type LoginLogEntry,
  type OperationLogEntry,
  type WireLanguage,
} from '@coldchain/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { countOperationLog, listOperationLog } from './audit.service';
import { canonicalJson } from './audit-chain';
import { buildExportFile, dayStamp, type ExportColumn, type ExportFile, formatInstant } from './export-file';
import { countLoginLog, type LoginLogScope, listLoginLog } from './login-log.service';

type Texts = Record<string, Record<WireLanguage, string>>;

/** Everything a person reads in the exported files, in both languages. */
const TEXT: Texts = {
  loginLogTitle: { en: 'Login log', cn: '登录日志' },
  operationLogTitle: { en: 'Operation log', cn: '操作日志' },
  user: { en: 'User', cn: '用户' },
  account: { en: 'Account', cn: '账号' },
  platform: { en: 'Platform', cn: '平台' },
  method: { en: 'Method', cn: '登录方式' },
  time: { en: 'Time', cn: '时间' },
  status: { en: 'Status', cn: '状态' },
  reason: { en: 'Reason', cn: '原因' },
  ip: { en: 'IP', cn: 'IP' },
  location: { en: 'Location', cn: '登录地点' },
  seq: { en: 'No.', cn: '序号' },
  operator: { en: 'Operator', cn: '操作人' },
  action: { en: 'Action', cn: '操作' },
  target: { en: 'Target', cn: '操作对象' },
  before: { en: 'Old value', cn: '修改前' },
  after: { en: 'New value', cn: '修改后' },
  success: { en: 'Success', cn: '成功' },
  failure: { en: 'Failure', cn: '失败' },
  platformSystem: { en: 'Platform', cn: '平台' },
};

const PLATFORMS: Texts = {
  1: { en: 'Web console', cn: '网页端' },
  2: { en: 'Mobile app', cn: '移动端' },
  3: { en: 'Open API', cn: '开放接口' },
};

const METHODS: Texts = {
  password: { en: 'Password', cn: '密码登录' },
  code: { en: 'Verification code', cn: '验证码登录' },
  addressCode: { en: 'Address code', cn: '地址码登录' },
  qr: { en: 'QR code', cn: '扫码登录' },
  ticket: { en: 'Data screen ticket', cn: '数据大屏票据登录' },
};

/** The reasons `recordLoginAttempt` is given by the login calls; others pass through as written. */
const REASONS: Texts = {
  'wrong password': { en: 'Wrong password', cn: '密码错误' },
  'unknown account': { en: 'Unknown account', cn: '账号不存在' },
  'wrong code': { en: 'Wrong code', cn: '验证码错误' },
  throttled: { en: 'Too many attempts', cn: '尝试次数过多' },
  'verification code required': { en: 'Verification code required', cn: '需要验证码' },
  'wrong verification code': { en: 'Wrong verification code', cn: '验证码错误' },
  disabled: { en: 'Account disabled', cn: '账号已停用' },
  cancelled: { en: 'Account cancelled', cn: '账号已注销' },
  'password renewal due': { en: 'Password renewal due', cn: '需要更换密码' },
  'invalid address code': { en: 'Invalid address code', cn: '地址码无效' },
  'invalid ticket': { en: 'Invalid or expired data screen ticket', cn: '数据大屏票据无效或已过期' },
  'abnormal login, no code channel': {
    en: 'Abnormal login, no way to send a code',
    cn: '异常登录，无法发送验证码',
  },
};

const pick = (table: Texts, key: string | number, language: WireLanguage) =>
  table[String(key)]?.[language] ?? String(key);

function assertNotTooLarge(count: number) {
  if (count > AUDIT_EXPORT_MAX_ROWS)
    throw new AppError('AUDIT_EXPORT_TOO_LARGE', { count, max: AUDIT_EXPORT_MAX_ROWS });
}

/**
 * The login log of a period as a file. Large periods are refused up front with the count rather
 * than streamed: an audit file of more than AUDIT_EXPORT_MAX_ROWS rows is not read by a person,
 * and a refusal keeps one export from holding the server's memory.
 */
export async function exportLoginLog(
  db: Db,
  scope: LoginLogScope,
  query: ExportLoginLogRequest,
  language: WireLanguage,
): Promise<ExportFile> {
  assertNotTooLarge(await countLoginLog(db, scope, query));
  const rows = await listLoginLog(db, scope, query, language, AUDIT_EXPORT_MAX_ROWS);
  const zone = query.timeZone ?? 'UTC';
  const t = (key: string) => TEXT[key]![language];
  const columns: ExportColumn<LoginLogEntry>[] = [
    { header: t('user'), value: (r) => r.userName },
    { header: t('account'), width: 26, value: (r) => r.account },
    { header: t('platform'), value: (r) => pick(PLATFORMS, r.platform, language) },
    { header: t('method'), value: (r) => pick(METHODS, r.method, language) },
    { header: t('time'), width: 21, value: (r) => formatInstant(r.time, zone) },
    { header: t('status'), value: (r) => t(r.status === 1 ? 'success' : 'failure') },
    { header: t('reason'), value: (r) => (r.reason ? pick(REASONS, r.reason, language) : '') },
    { header: t('ip'), value: (r) => r.ip },
    { header: t('location'), value: (r) => r.location },
  ];
  const title = t('loginLogTitle');
  const stem = `${title}-${dayStamp(query.startTime, zone)}-${dayStamp(query.endTime, zone)}`;
  return buildExportFile(query.format, title, columns, rows, stem, language);
}

/** A stored before/after value as one line of text: fields sorted, empty when there is none. */
function valueText(value: unknown): string {
  return value === null || value === undefined ? '' : canonicalJson(value);
}

export async function exportOperationLog(
  db: Db,
  companyId: number,
  query: ExportOperationLogRequest,
  language: WireLanguage,
): Promise<ExportFile> {
  assertNotTooLarge(await countOperationLog(db, companyId, query));
  const rows = await listOperationLog(db, companyId, query, AUDIT_EXPORT_MAX_ROWS);
  const zone = query.timeZone ?? 'UTC';
  const t = (key: string) => TEXT[key]![language];
  const columns: ExportColumn<OperationLogEntry>[] = [
    { header: t('seq'), width: 8, value: (r) => r.seq },
    { header: t('time'), width: 21, value: (r) => formatInstant(r.time, zone) },
    {
      header: t('operator'),
      value: (r) => (r.userId === null ? t('platformSystem') : r.userName || r.userId),
    },
    { header: t('action'), width: 24, value: (r) => pick(auditActionTitles, r.action, language) },
    {
      header: t('target'),
      width: 22,
      value: (r) => `${pick(auditTargetTitles, r.targetType, language)} ${r.targetId}`,
    },
    { header: t('before'), width: 40, value: (r) => valueText(r.before) },
    { header: t('after'), width: 40, value: (r) => valueText(r.after) },
    { header: t('reason'), value: (r) => r.reason },
    { header: t('ip'), value: (r) => r.ip },
  ];
  const title = t('operationLogTitle');
  const stem = `${title}-${dayStamp(query.startTime, zone)}-${dayStamp(query.endTime, zone)}`;
  return buildExportFile(query.format, title, columns, rows, stem, language);
}
