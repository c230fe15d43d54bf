import type { DeviceView, SensorView } from '@coldchain/contract';

/** Devices as the server presents them, for the page tests' fake server. */
const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);

export function sensor(overrides: Partial<SensorView> = {}): SensorView {
  return {
    id: 's1',
    channel: 1,
    name: 'Temperature',
    type: 'temperature',
    unit: '°C',
    rangeMin: -40,
    rangeMax: 85,
    value: 4.2,
    updateTime: NOW,
    remark: '',
    enabled: true,
    state: 1,
    ...overrides,
  };
}

export function device(overrides: Partial<DeviceView> = {}): DeviceView {
  return {
    id: '1',
    serial: 'DEMO0001',
    name: 'Vaccine fridge 1',
    model: 'CC-200',
    version: 'standard',
    state: 1,
    departmentId: null,
    groupId: null,
    expireTime: NOW + 365 * 86_400_000,
    lastSeenTime: NOW,
    uploadInterval: 60,
    offlineJudgement: 3,
    recordInterval: 300,
    alarmVerifyInterval: 60,
    hostAddress: '',
    subAddress: '',
    region: '',
    address: '',
    battery: 87,
    power: 'mains',
    mode: 'normal',
    remark: '',
    sensors: [
      sensor(),
      sensor({
        id: 's2',
        channel: 2,
        name: 'Humidity',
        type: 'humidity',
        unit: '%RH',
        value: 55,
        rangeMin: 0,
        rangeMax: 100,
      }),
    ],
    ...overrides,
  };
}

export const COUNTS = { '1': 8, '2': 1, '3': 1, '4': 1, '5': 1, '6': 0 };
