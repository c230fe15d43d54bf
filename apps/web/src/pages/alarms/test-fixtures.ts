import type { AlarmRecordView, AlarmSettingView } from '@coldchain/contract';
import type { LiveAlarm } from '../../api/live-socket';

/** Alarm records, settings and pushes as the server presents them, for the page tests. */
const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);

export function alarmRecord(overrides: Partial<AlarmRecordView> = {}): AlarmRecordView {
  return {
    id: '101',
    deviceId: '1',
    deviceSerial: 'DEMO0001',
    deviceName: 'Vaccine fridge 1',
    sensorId: '11',
    channelName: 'Temperature',
    settingId: '5',
    alarmType: 'overLimit',
    level: 2,
    alarmTime: NOW,
    content: { cn: '温度 12.5 °C 超过上限 8 °C', en: 'Temperature 12.5 °C above the limit 8 °C' },
    count: 1,
    lastValue: 12.5,
    resolveState: 1,
    resolverId: null,
    resolveTime: null,
    resolveType: null,
    cause: null,
    action: null,
    endTime: null,
    ...overrides,
  };
}

export function alarmSetting(overrides: Partial<AlarmSettingView> = {}): AlarmSettingView {
  return {
    id: '5',
    carrier: 'sensor',
    targetId: '11',
    deviceId: '1',
    sensorId: '11',
    level: 1,
    alarmType: 'overLimit',
    min: 2,
    max: 8,
    preMin: null,
    preMax: null,
    delaySeconds: 0,
    hysteresis: 0,
    repeat: 3,
    repeatIntervalSeconds: 600,
    escalateAfterSeconds: 0,
    escalation: [],
    channels: ['email'],
    timeSlot: 'allDay',
    periods: [],
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    timeZone: 'UTC',
    notifierIds: ['7'],
    enabled: true,
    ...overrides,
  };
}

export function livePush(overrides: Partial<LiveAlarm> = {}): { type: 'alarm'; bindContent: LiveAlarm } {
  return {
    type: 'alarm',
    bindContent: {
      alarmTime: NOW,
      alarmType: 'overLimit',
      groupName: '',
      deviceName: 'Vaccine fridge 1',
      deviceSerial: 'DEMO0001',
      deviceId: '1',
      channelName: 'Temperature',
      objectName: '',
      alarmContent: { cn: '温度超上限', en: 'Temperature above the limit' },
      alarmId: '101',
      level: 2,
      count: 1,
      ...overrides,
    },
  };
}
