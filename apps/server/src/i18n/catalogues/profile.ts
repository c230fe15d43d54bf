import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the personal centre, notices and file uploads (keys are AppError codes). */
export const profileMessages = {
  PROFILE_SAVED: { en: 'Personal information saved', cn: '个人信息已保存' },
  SIGN_PASSWORD_SAVED: { en: 'Signature password saved', cn: '签名密码已保存' },
  SIGN_PASSWORD_NOT_SET: {
    en: 'Signature password not set, so the feature cannot be used',
    cn: '未设置签名密码，无法使用该功能',
  },
  SIGN_PASSWORD_WRONG: { en: 'The signature password is incorrect', cn: '签名密码错误' },
  SIGN_PASSWORD_OLD_REQUIRED: {
    en: 'Enter the current signature password, or your login password if you forgot it, to change it',
    cn: '修改签名密码需输入原签名密码，忘记时可输入登录密码',
  },
  WECHAT_NOT_CONFIGURED: {
    en: 'WeChat is not configured on this server',
    cn: '服务器未配置微信',
  },
  WECHAT_BIND_FAILED: { en: 'Bind failed, please retry', cn: '绑定失败，请重试' },
  WECHAT_BOUND: { en: 'WeChat bound', cn: '微信绑定成功' },
  WECHAT_TAKEN: {
    en: 'This WeChat account is already bound to another user',
    cn: '该微信已绑定其他账号',
  },
  WECHAT_UNBOUND: { en: 'WeChat unbound', cn: '微信已解绑' },
  WECHAT_OFFICIAL_UNBOUND: {
    en: 'Official-account messages turned off',
    cn: '已取消公众号消息推送',
  },
  NOTICE_NOT_FOUND: { en: 'The notice does not exist', cn: '消息不存在' },
  UPLOAD_NO_FILE: { en: 'Choose a file to upload', cn: '请选择要上传的文件' },
  UPLOAD_TOO_LARGE: {
    en: 'The file is too large: at most {max} for {purpose}',
    cn: '文件过大：{purpose}最大 {max}',
  },
  UPLOAD_WRONG_TYPE: {
    en: 'Unsupported file type: {purpose} accepts {types}',
    cn: '文件类型不支持：{purpose}仅支持 {types}',
  },
  UPLOAD_TOO_MANY: { en: 'At most {max} files can be uploaded at once', cn: '一次最多上传 {max} 个文件' },
  UPLOAD_PURPOSE_INVALID: {
    en: 'Purpose is invalid: use one of {purposes}',
    cn: '用途无效，可选：{purposes}',
  },
  'rule.uploadUrl': {
    en: '{field} must be a file uploaded to this server',
    cn: '{field}必须是上传到本系统的文件',
  },
  'rule.phone': { en: '{field}: enter a correct mobile number', cn: '{field}：请输入正确的手机号' },
  'rule.email': { en: '{field}: enter a correct e-mail address', cn: '{field}：请输入正确的邮箱' },
  'rule.signPassword': {
    en: '{field} must be 6-20 English letters and digits',
    cn: '{field}须为 6-20 位英文字母和数字',
  },
} as const satisfies Catalogue;

/** Names of the upload purposes, for the size and type messages. */
export const uploadPurposeNames: LabelCatalogue = {
  avatar: { en: 'profile pictures', cn: '头像' },
  department: { en: 'department images', cn: '部门图片' },
  feedback: { en: 'feedback images', cn: '反馈图片' },
  invoice: { en: 'invoice pictures', cn: '发票图片' },
  attachment: { en: 'attachments', cn: '附件' },
  calibration: { en: 'calibration certificates', cn: '校准证书' },
};

/** Field labels of the personal-centre requests, so validation messages name the field. */
export const profileLabels: LabelCatalogue = {
  gender: { en: 'Gender', cn: '性别' },
  phone: { en: 'Phone', cn: '手机号' },
  email: { en: 'E-mail', cn: '邮箱' },
  altPhone: { en: 'Alternative phone', cn: '备用手机号' },
  headImg: { en: 'Profile picture', cn: '头像' },
  pcAlarmVoice: { en: 'Alarm sound', cn: '报警声音' },
  redirectUri: { en: 'Return address', cn: '回调地址' },
  purpose: { en: 'Purpose', cn: '用途' },
};
