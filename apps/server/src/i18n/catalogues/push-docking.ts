import type { Catalogue, LabelCatalogue } from './types';

/** Messages of push docking (modules/push-docking). */
export const pushDockingMessages = {
  'rule.pushName': { en: '{field} must be 2-50 characters', cn: '{field}长度须为 2-50 个字符' },
  'rule.pushUrl': {
    en: '{field} must be an http:// or https:// address of at most 2000 characters',
    cn: '{field}须为 http:// 或 https:// 开头、不超过 2000 个字符的地址',
  },
  'rule.pushEvents': {
    en: '{field}: choose at least one of readings, alarms, alarm resolved, device state',
    cn: '{field}：请至少选择实时数据、报警、报警处理、设备状态中的一项',
  },
  'rule.pushDevices': {
    en: '{field}: at most 5000 devices per address',
    cn: '{field}：每个推送地址最多 5000 台设备',
  },
  PUSH_SERVICE_OFF: {
    en: 'The push docking service is not enabled for this company; ask your supplier',
    cn: '本企业未开通推送对接服务，请联系供应商',
  },
  PUSH_URL_NOT_FOUND: { en: 'The push address does not exist', cn: '推送地址不存在' },
  PUSH_URL_STOPPED: {
    en: 'The push address is stopped; save it again to restart it',
    cn: '该推送地址已停止，重新保存后可再次启用',
  },
  PUSH_URL_UNREACHABLE: {
    en: 'The push address is not reachable from the platform',
    cn: '平台无法访问该推送地址',
  },
  PUSH_SECRET_LOST: {
    en: "The address's signing secret cannot be read on this server (its SECRET_KEY changed); stop the address and add it again",
    cn: '本服务器无法读取该地址的签名密钥（SECRET_KEY 已更改），请停止该地址后重新添加',
  },
  PUSH_TOO_MANY_URLS: {
    en: 'A company may hold at most 20 push addresses',
    cn: '每个企业最多拥有 20 个推送地址',
  },
  PUSH_STOPPED_NOTICE_TITLE: { en: 'Push address stopped', cn: '推送地址已停止' },
  PUSH_STOPPED_NOTICE: {
    en: 'Deliveries to the push address "{name}" ({url}) failed for 24 hours, so it was stopped and its queue and devices were cleared. Check the receiver, then save the address again and choose its devices.',
    cn: '推送地址“{name}”（{url}）连续 24 小时推送失败，已停止并清空其队列和设备。请检查接收方后重新保存该地址并选择设备。',
  },
} satisfies Catalogue;

export const pushDockingRouteLabels: Record<string, LabelCatalogue> = {
  '/api/push/saveUrl': {
    name: { en: 'Address name', cn: '地址名称' },
    url: { en: 'Push address', cn: '推送地址' },
    events: { en: 'Events', cn: '推送事件' },
  },
  '/api/push/setDevices': { deviceIds: { en: 'Devices', cn: '设备' } },
};
