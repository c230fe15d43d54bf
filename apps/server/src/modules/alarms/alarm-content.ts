import type { AlarmType } from '@coldchain/contract';

/** What an alarm text needs to know about its device and channel. */
export interface AlarmSubject {
  deviceName: string;
  deviceSerial: string;
  /** Null for device-level alarms (offline, power, battery, call). */
  sensor: { name: string; type: string; unit: string } | null;
}

export interface ContentFacts {
  alarmType: AlarmType;
  value?: number | null;
  /** The limit that was broken (or the measuring range for `abnormal`). */
  min?: number | null;
  max?: number | null;
}

/** Sensor values and limits are shown with at most 2 decimals, as the console does. */
export function formatValue(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** Default sensor names are English ("Temperature 1"); the Chinese text names them in Chinese. */
function channelNameCn(name: string): string {
  const match = /^(Temperature|Humidity) (\d+)$/.exec(name);
  if (!match) return name;
  return `${match[1] === 'Humidity' ? '湿度' : '温度'}${match[2]}`;
}

/**
 * The alarm text in both languages, stored with the record so that the history reads the same
 * whatever the device is renamed to later, and each user sees it in their own language.
 */
export function alarmContent(subject: AlarmSubject, facts: ContentFacts): { cn: string; en: string } {
  const device = subject.deviceName;
  const tag = `${device} (${subject.deviceSerial})`;
  const tagCn = `${device}（${subject.deviceSerial}）`;
  switch (facts.alarmType) {
    case 'offline':
      return { en: `${tag} is offline`, cn: `${tagCn}已离线` };
    case 'online':
      return { en: `${tag} is back online`, cn: `${tagCn}已恢复在线` };
    case 'powerOff':
      return { en: `${tag} has lost external power`, cn: `${tagCn}外部电源已断开` };
    case 'lowBattery':
      return { en: `The battery of ${tag} is low`, cn: `${tagCn}电池电量低` };
    case 'call':
      return { en: `Incoming call on ${tag}`, cn: `${tagCn}有来电` };
    default:
      return valueContent(subject, facts);
  }
}

function valueContent(subject: AlarmSubject, facts: ContentFacts): { cn: string; en: string } {
  const sensor = subject.sensor ?? { name: 'Sensor', type: 'temperature', unit: '' };
  const unit = sensor.unit ? ` ${sensor.unit}` : '';
  const v = `${formatValue(facts.value ?? 0)}${unit}`;
  const head = {
    en: `${sensor.name} of ${subject.deviceName} is ${v}`,
    cn: `${subject.deviceName}的${channelNameCn(sensor.name)}为 ${v}`,
  };
  const above = facts.max !== null && facts.max !== undefined && (facts.value ?? 0) > facts.max;
  const limit = above ? facts.max : facts.min;
  const l = limit === null || limit === undefined ? '' : `${formatValue(limit)}${unit}`;
  if (facts.alarmType === 'abnormal') {
    const range = `${formatValue(facts.min ?? 0)} - ${formatValue(facts.max ?? 0)}${unit}`;
    return {
      en: `${head.en}, outside the measuring range ${range} (device abnormal)`,
      cn: `${head.cn}，超出量程 ${range}（设备异常）`,
    };
  }
  if (facts.alarmType === 'preAlarm') {
    return above
      ? { en: `${head.en}, above the pre-alarm limit ${l}`, cn: `${head.cn}，高于预警上限 ${l}` }
      : { en: `${head.en}, below the pre-alarm limit ${l}`, cn: `${head.cn}，低于预警下限 ${l}` };
  }
  return above
    ? { en: `${head.en}, above the limit ${l}`, cn: `${head.cn}，高于上限 ${l}` }
    : { en: `${head.en}, below the limit ${l}`, cn: `${head.cn}，低于下限 ${l}` };
}
