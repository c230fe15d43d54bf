import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the signature step, the audit signature switch and the export flag. */
export const signatureMessages = {
  SIGN_PASSWORD_LOCKED: {
    en: 'Too many incorrect signature passwords: signing is locked, try again in {minutes} minutes',
    cn: '签名密码错误次数过多，签名已锁定，请 {minutes} 分钟后再试',
  },
  EXPORT_NOT_ALLOWED: {
    en: 'No permission to export: ask the company administrator to allow exports for you',
    cn: '暂无导出权限，请联系企业管理员开通',
  },
  AUDIT_SIGNATURE_ON: {
    en: 'Audit signature is on: resolving alarms and exporting now need the signature password',
    cn: '已开启审计签名：处理报警和导出需输入签名密码',
  },
  AUDIT_SIGNATURE_OFF: { en: 'Audit signature is off', cn: '已关闭审计签名' },
  MEMBER_EXPORT_SAVED: { en: 'Export permission saved', cn: '导出权限已保存' },
  LOGIN_PASSWORD_WRONG: { en: 'The login password is incorrect', cn: '登录密码错误' },
} satisfies Catalogue;

export const signatureLabels = {
  loginPassword: { en: 'Login password', cn: '登录密码' },
} satisfies LabelCatalogue;
