import type { Catalogue, LabelCatalogue } from './types';

/** Messages of platform docking (modules/platform-docking). */
export const platformDockingMessages = {
  'rule.platformName': { en: '{field} must be 2-100 characters', cn: '{field}长度须为 2-100 个字符' },
  'rule.platformProtocol': { en: '{field}: choose a supported protocol', cn: '{field}：请选择支持的协议' },
  'rule.platformKeyId': { en: '{field} must be 1-200 characters', cn: '{field}长度须为 1-200 个字符' },
  'rule.platformSecret': { en: '{field} must be 8-500 characters', cn: '{field}长度须为 8-500 个字符' },
  'rule.dockingDevices': {
    en: '{field}: choose 1 to 5000 monitors',
    cn: '{field}：请选择 1 至 5000 台监测设备',
  },
  'rule.dockingReason': { en: '{field} must be at most 200 characters', cn: '{field}不能超过 200 个字符' },
  DOCKING_PLATFORM_NOT_FOUND: {
    en: 'The platform does not exist or is not offered',
    cn: '平台不存在或未开放对接',
  },
  DOCKING_NOT_FOUND: { en: 'The docking does not exist', cn: '对接记录不存在' },
  DOCKING_EXISTS: {
    en: 'This company already docks to this platform; change its monitors or stop it first',
    cn: '本企业已对接该平台，请修改其监测设备或先停止对接',
  },
  DOCKING_STOPPED: {
    en: 'The docking is stopped; apply again to restart it',
    cn: '该对接已停止，请重新申请',
  },
  DOCKING_NOT_PENDING: { en: 'Only a pending application can be decided', cn: '只能处理待审核的申请' },
  DOCKING_SECRET_REQUIRED: { en: 'A new platform needs its signing secret', cn: '新增平台须填写签名密钥' },
} satisfies Catalogue;

export const platformDockingRouteLabels: Record<string, LabelCatalogue> = {
  '/api/platformDock/apply': {
    platformId: { en: 'Platform', cn: '平台' },
    deviceIds: { en: 'Monitors', cn: '监测设备' },
  },
  '/api/platformDock/setDevices': { deviceIds: { en: 'Monitors', cn: '监测设备' } },
  '/api/operator/platform/savePlatform': {
    name: { en: 'Platform name', cn: '平台名称' },
    protocol: { en: 'Protocol', cn: '协议' },
    endpoint: { en: 'Delivery address', cn: '推送地址' },
    keyId: { en: 'Key ID', cn: '密钥标识' },
    secret: { en: 'Signing secret', cn: '签名密钥' },
  },
  '/api/operator/platform/decideRequest': { reason: { en: 'Reason', cn: '原因' } },
};
