/*
 * The equipment calls' wire shapes as docs/API.md "Equipment" describes them. The contract
 * package has no equipment types yet; when it does, these give way to its own.
 */

export const ATTRIBUTE_KINDS = ['text', 'number', 'attachment', 'choice'] as const;
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];

/** One custom attribute of an equipment type, as `saveType` takes it and `pageTypes` answers it. */
export interface EquipmentAttribute {
  id?: string;
  name: string;
  kind: AttributeKind;
  required?: boolean;
  /** text */
  minLength?: number;
  maxLength?: number;
  /** number */
  numberKind?: 'integer' | 'decimal';
  min?: number;
  max?: number;
  unit?: string;
  /** choice */
  multiple?: boolean;
  options?: string[];
  allowOther?: boolean;
}

export interface EquipmentType {
  id: string;
  name: string;
  code: string;
  introImage?: string | null;
  attributes: EquipmentAttribute[];
  equipmentCount?: number;
  createTime?: number;
}

export interface SaveTypeRequest {
  id?: string;
  name: string;
  code: string;
  introImage?: string;
  attributes: EquipmentAttribute[];
}

/** How the form holds a choice: the options picked, and the free text of "other" when picked. */
export interface ChoiceValue {
  options: string[];
  other?: string;
}
/**
 * A stored value: text and attachment (a `/files/` path) are strings, number a number, a choice a
 * string (single) or string array (multiple), a text that is no option being the "other" text.
 */
export type WireValue = string | number | string[];
/** A value as the equipment form edits it. */
export type AttributeValue = string | number | ChoiceValue;

/** A sensor (a monitor's channel) measuring a piece of equipment. */
export interface BoundSensor {
  id: string;
  name: string;
  channel: number;
  deviceId: string;
  deviceSerial?: string;
  deviceName?: string;
  unit?: string;
  value?: number | null;
  updateTime?: number | null;
}

export const USE_STATES = [1, 2, 3, 4] as const;
export const UseState = { InUse: 1, UnderService: 2, Disposed: 3, Standby: 4 } as const;

/**
 * The excursion budget: at most `budgetMinutes` per 30 days below `min` or above `max` (for
 * example "at most 60 minutes above 8 °C per month").
 */
export interface Excursion {
  min?: number | null;
  max?: number | null;
  budgetMinutes: number;
}

/** A row of `pageEquipment`. */
export interface EquipmentItem {
  id: string;
  typeId: string;
  typeName?: string;
  typeCode?: string;
  serial: string;
  serialSuffix?: string;
  name: string;
  departmentId: string | null;
  departmentName?: string | null;
  groupId?: string | null;
  groupName?: string | null;
  address?: string;
  remarks?: string;
  region?: string;
  useState: number;
  sensorCount?: number;
  /** Stored values that no longer fit the type since it changed. */
  attributeIssueCount?: number;
  nextCalibrationTime?: number | null;
  createTime?: number;
}

/** `equipmentDetail`: the row plus values, issues, type, budget and sensors. */
export interface Equipment extends EquipmentItem {
  attributes: Record<string, WireValue>;
  attributeIssues?: { attributeId: string; name: string; message: string }[];
  type?: EquipmentType;
  excursion?: Excursion | null;
  sensors: BoundSensor[];
  /** True while under service, disposed or inside a maintenance window: sensors raise no alarm. */
  alarmSuppressed?: boolean;
}

/** `sensorOptions`: a sensor that may be bound, with the equipment holding it (null when free). */
export interface SensorOption {
  id: string;
  deviceId: string;
  deviceSerial: string;
  deviceName: string;
  channel: number;
  name: string;
  unit?: string;
  equipmentId: string | null;
  equipmentName?: string | null;
}

export interface SaveEquipmentRequest {
  id?: string;
  typeId: string;
  serialSuffix: string;
  name: string;
  departmentId?: string;
  /** '' unbinds the equipment from its group. */
  groupId?: string;
  address?: string;
  remarks?: string;
  region?: string;
  useState?: number;
  attributes?: Record<string, WireValue>;
  sensorIds?: string[];
  excursion?: Excursion | null;
}

export interface PageEquipmentRequest {
  pageNum: number;
  pageSize: number;
  typeId?: string;
  useState?: number;
  departmentId?: string;
  keyword?: string;
}

export const RECORD_KINDS = ['calibration', 'repair', 'maintenance', 'scrap', 'transfer', 'patrol'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/**
 * One lifecycle record. Every kind carries who and when (`time` is the record's main time); the
 * rest are the kind's own fields (spec section 3 "Records"), absent on the other kinds.
 */
export interface EquipmentRecord {
  id: string;
  equipmentId: string;
  kind: RecordKind;
  time: number;
  createdBy?: string | null;
  createdByName?: string | null;
  createTime: number;
  remarks?: string | null;
  // calibration
  calibratedAt?: number;
  nextDueAt?: number;
  institution?: string;
  certificateUrl?: string | null;
  // repair and maintenance
  unit?: string;
  person?: string;
  faultTime?: number;
  cause?: string;
  repaired?: boolean;
  repairTime?: number | null;
  startTime?: number;
  endTime?: number;
  durationMinutes?: number;
  preventive?: boolean;
  // scrap
  scrapType?: 'scrap' | 'moveOut';
  // transfer
  operator?: string | null;
  fromDepartmentId?: string | null;
  toDepartmentId?: string | null;
  fromDepartmentName?: string | null;
  toDepartmentName?: string | null;
  // patrol
  planId?: string | null;
  reading?: number | null;
  condition?: 'normal' | 'abnormal';
  photoUrl?: string | null;
}

export type AddRecordRequest = { equipmentId: string; kind: RecordKind; signPassword?: string } & Record<
  string,
  unknown
>;

export const STAT_PERIODS = ['day', 'week', 'month', 'custom'] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

/** `equipmentStats`: per-sensor figures of the period, and the budget consumed. */
export interface EquipmentStats {
  startTime: number;
  endTime: number;
  sensors: {
    sensorId: string;
    name: string;
    unit?: string;
    count: number;
    min: number | null;
    max: number | null;
    mean: number | null;
    /** Mean kinetic temperature; null for non-temperature sensors or no readings. */
    mkt: number | null;
  }[];
  minutesOutOfRange: number;
  budget: {
    min?: number | null;
    max?: number | null;
    budgetMinutes: number;
    usedMinutes: number;
    ratio: number;
  } | null;
}

export const PATROL_STATES = ['due', 'done', 'missed'] as const;
export type PatrolState = (typeof PATROL_STATES)[number];

export interface PatrolRound {
  startTime: number;
  endTime: number;
  state: PatrolState;
  recordId?: string | null;
}

/** A patrol plan: one equipment or one group, a round every `intervalHours` (> 6). */
export interface PatrolPlan {
  id: string;
  name: string;
  equipmentId?: string | null;
  equipmentName?: string | null;
  groupId?: string | null;
  groupName?: string | null;
  intervalHours: number;
  startTime: number;
  enabled: boolean;
  lastPatrolTime?: number | null;
  currentRound?: PatrolRound | null;
}

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}
