import type { Equipment, EquipmentItem, EquipmentRecord, EquipmentType, PatrolPlan } from './types';

/** Equipment as the server presents it (docs/API.md "Equipment"), for the page tests' fake server. */
export const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);

export const page = <T>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

export const fridgeType: EquipmentType = {
  id: 't1',
  name: 'Vaccine fridge',
  code: '10',
  introImage: null,
  equipmentCount: 2,
  attributes: [
    { id: 'a1', name: 'Brand', kind: 'text', minLength: 4, maxLength: 10, required: true },
    { id: 'a2', name: 'Volume', kind: 'number', numberKind: 'integer', min: 50, max: 2000, unit: 'L' },
    { id: 'a3', name: 'Manual', kind: 'attachment' },
    {
      id: 'a4',
      name: 'Doors',
      kind: 'choice',
      options: ['Glass', 'Solid'],
      multiple: false,
      allowOther: true,
    },
  ],
};

export function item(overrides: Partial<EquipmentItem> = {}): EquipmentItem {
  return {
    id: 'e1',
    typeId: 't1',
    typeName: 'Vaccine fridge',
    typeCode: '10',
    serial: '100001',
    serialSuffix: '0001',
    name: 'Pharmacy fridge',
    departmentId: 'd2',
    departmentName: 'Pharmacy',
    groupId: null,
    useState: 1,
    sensorCount: 1,
    attributeIssueCount: 0,
    nextCalibrationTime: NOW + 20 * 86_400_000,
    createTime: NOW,
    ...overrides,
  };
}

export function equipment(overrides: Partial<Equipment> = {}): Equipment {
  return {
    ...item(),
    attributes: { a1: 'Haier', a2: 280, a4: 'Glass' },
    attributeIssues: [],
    type: fridgeType,
    excursion: { max: 8, budgetMinutes: 60 },
    alarmSuppressed: false,
    sensors: [
      {
        id: 's1',
        deviceId: '1',
        deviceSerial: 'DEMO0001',
        deviceName: 'Logger 1',
        channel: 1,
        name: 'Temperature',
        unit: '°C',
        value: 4.2,
        updateTime: NOW,
      },
    ],
    ...overrides,
  };
}

export function record(overrides: Partial<EquipmentRecord> = {}): EquipmentRecord {
  return {
    id: 'r1',
    equipmentId: 'e1',
    kind: 'repair',
    time: NOW - 86_400_000,
    createdBy: 'u1',
    createdByName: 'Demo Admin',
    createTime: NOW,
    ...overrides,
  };
}

export function plan(overrides: Partial<PatrolPlan> = {}): PatrolPlan {
  return {
    id: 'p1',
    name: 'Fridge round',
    equipmentId: 'e1',
    equipmentName: 'Pharmacy fridge',
    groupId: null,
    intervalHours: 12,
    startTime: NOW - 86_400_000,
    enabled: true,
    lastPatrolTime: NOW - 3_600_000,
    currentRound: { startTime: NOW - 3_600_000, endTime: NOW + 39_600_000, state: 'due' },
    ...overrides,
  };
}

export const DEPARTMENTS = [
  { id: 'd1', pid: '0', name: 'Demo Cold Chain', level: 1, groups: [] },
  { id: 'd2', pid: 'd1', name: 'Pharmacy', level: 2, groups: [] },
  { id: 'd3', pid: 'd1', name: 'Cold room', level: 2, groups: [] },
];
