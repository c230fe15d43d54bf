import type { Catalogue, LabelCatalogue } from './types';

/** Messages of alarm settings, records and their export (keys are AppError codes and rule names). */
export const alarmsMessages = {
  'rule.channelRequired': { en: 'Select the channel the setting applies to', cn: '请选择设置所属的通道' },
  ALARM_CHANNEL_MISSING: {
    en: 'Device {serial} has no sensor on channel {channel}; nothing was saved',
    cn: '设备 {serial} 没有通道 {channel} 的传感器，未保存任何设置',
  },
  ALARM_EXPORT_TOO_LARGE: {
    en: 'The period holds {count} alarm records; at most {max} can be exported at once. Choose a shorter period or filter',
    cn: '该时间段共有 {count} 条报警记录，单次最多导出 {max} 条，请缩短时间段或增加筛选条件',
  },
  REMOTE_ALARM_UNAVAILABLE: {
    en: 'The current device version has no remote alarm and needs an upgrade ({serial}): SMS, phone call, WhatsApp and WeChat need a standard, elite or premium device',
    cn: '当前设备版本无远程报警功能，需升级（{serial}）：短信、电话、WhatsApp 和微信报警需要标准版、精英版或旗舰版设备',
  },
  SIGN_PASSWORD_REQUIRED: {
    en: 'Enter your signature password to continue',
    cn: '请输入签名密码后继续',
  },
} satisfies Catalogue;

export const alarmsLabels = {
  deviceIds: { en: 'Devices', cn: '设备' },
  channel: { en: 'Channel', cn: '通道' },
  signPassword: { en: 'Signature password', cn: '签名密码' },
  /** A setting's call tree: who escalation levels 2 and 3 reach (alarm-escalation.ts). */
  escalation: { en: 'Escalation levels', cn: '升级通知' },
} satisfies LabelCatalogue;

/** Texts written into an alarm export, in the request's language. */
export const alarmExportTexts = {
  sheet: { en: 'Alarm records', cn: '报警记录' },
  columns: {
    time: { en: 'Alarm time', cn: '报警时间' },
    device: { en: 'Device', cn: '设备' },
    serial: { en: 'Serial number', cn: '序列号' },
    sensor: { en: 'Sensor', cn: '传感器' },
    type: { en: 'Alarm type', cn: '报警类型' },
    level: { en: 'Alarm level', cn: '报警级别' },
    content: { en: 'Content', cn: '报警内容' },
    count: { en: 'Count', cn: '报警次数' },
    resolveState: { en: 'Resolve state', cn: '处理状态' },
    resolver: { en: 'Resolver', cn: '处理人' },
    resolveTime: { en: 'Resolve time', cn: '处理时间' },
    cause: { en: 'Cause', cn: '原因' },
    action: { en: 'Action taken', cn: '处理措施' },
  },
  types: {
    overLimit: { en: 'Over-limit alarm', cn: '超限报警' },
    preAlarm: { en: 'Over-limit pre-alarm', cn: '超限预警' },
    powerOff: { en: 'Power outage', cn: '断电报警' },
    offline: { en: 'Offline', cn: '离线报警' },
    abnormal: { en: 'Device abnormal', cn: '设备异常' },
    online: { en: 'Online notice', cn: '上线通知' },
    call: { en: 'Incoming-call notice', cn: '来电通知' },
    lowBattery: { en: 'Low battery', cn: '低电量' },
  } as Record<string, { en: string; cn: string }>,
  resolveStates: {
    1: { en: 'Pending', cn: '待处理' },
    2: { en: 'In progress', cn: '处理中' },
    3: { en: 'Resolved', cn: '已处理' },
    4: { en: 'Expired', cn: '已过期' },
    5: { en: 'Normalized', cn: '已恢复正常' },
  } as Record<number, { en: string; cn: string }>,
  level: { en: 'Level {level}', cn: '{level}级' },
};
