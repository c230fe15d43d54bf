import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the account area, in English and Simplified Chinese (keys are AppError codes). */
export const accountMessages = {
  LOGIN_WAIT: {
    en: 'Too many failed logins; please wait {seconds} seconds before trying again',
    cn: '登录失败次数过多，请等待 {seconds} 秒后再试',
  },
  LOGIN_LOCKED: {
    en: 'Too many failed logins; this account is locked, try again in {minutes} minutes',
    cn: '登录失败次数过多，账号已锁定，请 {minutes} 分钟后再试',
  },
  LOGIN_CODE_SENT_EMAIL: {
    en: 'Unusual login: enter the verification code sent to your e-mail',
    cn: '异常登录：请输入发送至您邮箱的验证码',
  },
  LOGIN_CODE_SENT_SMS: {
    en: 'Unusual login: enter the verification code sent by SMS',
    cn: '异常登录：请输入短信收到的验证码',
  },
  PASSWORD_RENEWAL_DUE: {
    en: 'Your password is older than {days} days; please change it',
    cn: '您的密码已超过 {days} 天未修改，请修改密码',
  },
  PASSWORD_CHANGE_FIRST: {
    en: 'Please change your password first',
    cn: '请先修改密码',
  },
  OLD_PASSWORD_WRONG: { en: 'The old password is incorrect', cn: '原密码错误' },
  PASSWORD_SAME_AS_OLD: {
    en: 'The new password must differ from the old one',
    cn: '新密码不能与原密码相同',
  },
  PASSWORD_UPDATED: {
    en: 'Password changed; please log in with the new password',
    cn: '密码修改成功，请使用新密码登录',
  },
  PASSWORD_UPDATED_STAY: {
    en: 'Password changed; your other sessions have been logged out',
    cn: '密码修改成功，其他设备上的登录已退出',
  },
  QR_EXPIRED: {
    en: 'Verification code invalid; click the QR code to refresh',
    cn: '二维码已失效，请点击二维码刷新',
  },
  QR_CONFIRMED: { en: 'Login confirmed on the other device', cn: '已确认在另一设备上登录' },
  ADDRESS_CODE_INVALID: {
    en: 'This login link is invalid, used or expired; ask for a new one',
    cn: '该登录链接无效、已使用或已过期，请重新获取',
  },
  ACCOUNT_CANCELLED: {
    en: 'This account was cancelled after 12 months without login; please contact support',
    cn: '该账号因 12 个月未登录已注销，请联系客服',
  },
  PASSWORD_RENEWAL_SAVED: { en: 'Password renewal setting saved', cn: '密码定期修改设置已保存' },
  DATA_VIEW_TICKET_INVALID: {
    en: 'This data screen link is invalid, used or older than 5 minutes; open the data screen again from the console',
    cn: '该数据大屏链接无效、已使用或已超过 5 分钟，请从控制台重新打开数据大屏',
  },
  'rule.ticket': {
    en: '{field} is not a valid data screen ticket',
    cn: '{field}不是有效的数据大屏票据',
  },
  'rule.addressCode': {
    en: '{field}: enter the 10-character code of the login link',
    cn: '{field}：请输入登录链接中的 10 位代码',
  },
} as const satisfies Catalogue;

/** Field labels of the account area's requests, so that validation messages name the field. */
export const accountLabels: LabelCatalogue = {
  oldPassword: { en: 'Old password', cn: '原密码' },
};
