import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the operator console and supplier-enabled services (modules/operator). */
export const operatorMessages = {
  OPERATOR_ONLY: { en: 'Only platform operators may do this', cn: '只有平台运营人员可以执行此操作' },
  COMPANY_NOT_FOUND: { en: 'The company does not exist', cn: '企业不存在' },
  SERVICE_EXPIRY_PAST: {
    en: 'A service’s expiry must lie in the future; switch the service off instead',
    cn: '服务到期时间须晚于当前时间；如需停用请直接关闭该服务',
  },
  'rule.serviceTag': { en: '{field} is not a known service', cn: '{field}不是已知的服务' },
  'rule.creditAmount': {
    en: '{field} must be a whole number from 1 to 1,000,000',
    cn: '{field}须为 1 到 1,000,000 之间的整数',
  },
  INVENTORY_CSV_INVALID: {
    en: 'Nothing imported: {count} line(s) cannot be read, the first is line {line}: {reason}',
    cn: '未导入：有 {count} 行无法读取，第一处在第 {line} 行：{reason}',
  },
  INVENTORY_CSV_EMPTY: { en: 'The file lists no devices', cn: '文件中没有设备' },
  SUPPORT_ACCESS_ADMIN_ONLY: {
    en: 'Only the company administrator may grant or revoke support access',
    cn: '只有企业管理员可以授予或撤销技术支持访问权限',
  },
  SUPPORT_ACCESS_WINDOW: {
    en: 'Support access must end in the future, at most {days} days from now',
    cn: '技术支持访问的结束时间须晚于当前时间，且不超过 {days} 天',
  },
  SUPPORT_ACCESS_NOT_GRANTED: {
    en: 'This company has not granted support access, or it has ended',
    cn: '该企业未授予技术支持访问权限，或权限已到期',
  },
} satisfies Catalogue;

/** Field names of the operator calls, for validation messages. */
const operatorLabels: LabelCatalogue = {
  id: { en: 'Company', cn: '企业' },
  keyword: { en: 'Keyword', cn: '关键字' },
  services: { en: 'Services', cn: '服务' },
  tag: { en: 'Service', cn: '服务' },
  expireTime: { en: 'Service end', cn: '服务到期时间' },
  amount: { en: 'Credits', cn: '额度' },
  note: { en: 'Reason', cn: '原因' },
  disabled: { en: 'Disabled', cn: '停用' },
  csv: { en: 'CSV file', cn: 'CSV 文件' },
  bound: { en: 'Bind state', cn: '绑定状态' },
  until: { en: 'Support access end', cn: '技术支持访问结束时间' },
};

export const operatorRouteLabels: Record<string, LabelCatalogue> = Object.fromEntries(
  [
    'pageCompanies',
    'companyDetail',
    'setServices',
    'grantCredits',
    'setCompanyDisabled',
    'previewInventory',
    'importInventory',
    'pageInventory',
    'pageFeedback',
    'pageSupportDevices',
  ]
    .map((call): string => `/api/operator/${call}`)
    .concat('/api/company/setSupportAccess')
    .map((route) => [route, operatorLabels]),
);
