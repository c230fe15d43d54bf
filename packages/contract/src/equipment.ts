import { z } from 'zod';
import { AuditExportFormats } from './audit';
import { CertificateUrl, INSTITUTION_MAX } from './calibration';
import { ExportProgressField } from './export-progress';
import { UPLOAD_URL_PREFIX } from './profile';
import { MAX_INSTANT_MS } from './rules';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

/*
 * Cold-chain equipment (spec sections 3-5 and 9, API.md "Equipment"; the calls as built are in
 * docs/API.md "Equipment"). Times are epoch milliseconds.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const Time = z.number().int().positive().max(MAX_INSTANT_MS, { error: 'rule.instant' });
const Paging = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
};

/**
 * Spec section 9 gives 20 and 50 attributes per type: 20 is the tighter one. A form of 20 fields
 * is already long for the person at the fridge, and raising the cap later breaks nothing stored,
 * while lowering it would strand types that use more.
 */
export const EQUIPMENT_ATTRIBUTE_MAX = 20;
/** Spec section 5: a text attribute's length range lies within 4-10. */
export const TEXT_ATTRIBUTE_MIN = 4;
export const TEXT_ATTRIBUTE_MAX = 10;
export const CHOICE_OPTION_MAX = 50;
/** Spec section 5: a patrol interval must exceed 6 hours. */
export const PATROL_MIN_INTERVAL_HOURS = 6;
/** The excursion budget is per 30 days: 31 days of minutes is the most it can mean. */
export const EXCURSION_BUDGET_MAX_MINUTES = 31 * 24 * 60;

/** Use state (spec section 4). 3 comes only from a scrap record. */
export const EquipmentUseState = { InUse: 1, UnderService: 2, Disposed: 3, Standby: 4 } as const;

export const AttributeKind = z.enum(['text', 'number', 'attachment', 'choice']);
export type AttributeKind = z.infer<typeof AttributeKind>;

export const UploadedFileUrl = z
  .string()
  .trim()
  .regex(new RegExp(`^${UPLOAD_URL_PREFIX}[a-f0-9]{32}\\.(pdf|jpg|png|gif|webp)$`), {
    error: 'rule.uploadUrl',
  });

/** One custom attribute of a type; the fields of other kinds are ignored. */
export const EquipmentAttribute = z
  .object({
    id: z
      .string()
      .regex(/^[a-f0-9]{8}$/, { error: 'rule.attributeId' })
      .optional(),
    name: z.string().trim().min(1).max(50),
    kind: AttributeKind,
    required: z.boolean().default(false),
    minLength: z.number().int().min(TEXT_ATTRIBUTE_MIN).max(TEXT_ATTRIBUTE_MAX).optional(),
    maxLength: z.number().int().min(TEXT_ATTRIBUTE_MIN).max(TEXT_ATTRIBUTE_MAX).optional(),
    numberKind: z.enum(['integer', 'decimal']).optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    unit: z.string().trim().max(20).optional(),
    multiple: z.boolean().optional(),
    options: z.array(z.string().trim().min(1).max(50)).max(CHOICE_OPTION_MAX).optional(),
    allowOther: z.boolean().optional(),
  })
  .superRefine((a, ctx) => {
    if (a.kind === 'text' && (a.minLength ?? TEXT_ATTRIBUTE_MIN) > (a.maxLength ?? TEXT_ATTRIBUTE_MAX))
      ctx.addIssue({ code: 'custom', message: 'rule.lengthRange', path: ['minLength'] });
    if (a.kind === 'number' && a.min !== undefined && a.max !== undefined && a.min > a.max)
      ctx.addIssue({ code: 'custom', message: 'rule.numberRange', path: ['min'] });
    if (a.kind === 'choice') {
      const options = a.options ?? [];
      if (options.length === 0)
        ctx.addIssue({ code: 'custom', message: 'rule.choiceOptions', path: ['options'] });
      if (new Set(options).size !== options.length)
        ctx.addIssue({ code: 'custom', message: 'rule.choiceOptionsDistinct', path: ['options'] });
    }
  });
export type EquipmentAttribute = z.infer<typeof EquipmentAttribute>;

/** `/api/equipmentType/saveType`. */
export const SaveEquipmentTypeRequest = z.object({
  id: Id.optional(),
  name: z.string().trim().min(1).max(50),
  code: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, { error: 'rule.typeCode' }),
  introImage: z.union([z.literal(''), UploadedFileUrl]).optional(),
  attributes: z
    .array(EquipmentAttribute)
    .max(EQUIPMENT_ATTRIBUTE_MAX, { error: 'rule.attributeCap' })
    .default([]),
});
export type SaveEquipmentTypeRequest = z.infer<typeof SaveEquipmentTypeRequest>;

export const PageEquipmentTypesRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
});
export type PageEquipmentTypesRequest = z.infer<typeof PageEquipmentTypesRequest>;

export const EquipmentIdRequest = z.object({ id: Id });
export type EquipmentIdRequest = z.infer<typeof EquipmentIdRequest>;

/** A stored attribute as answered: the server has given it an id. */
export type StoredAttribute = Omit<EquipmentAttribute, 'id'> & { id: string };

export interface EquipmentTypeView {
  id: string;
  name: string;
  code: string;
  introImage: string;
  attributes: StoredAttribute[];
  equipmentCount: number;
  createTime: number;
}

/** An attribute's value: text and attachment a string, number a number, choice one or several texts. */
export const AttributeValue = z.union([
  z.string().max(1000),
  z.number().finite(),
  z.array(z.string().max(50)).max(50),
]);
export type AttributeValue = z.infer<typeof AttributeValue>;

export const ExcursionBudget = z
  .object({
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    budgetMinutes: z.number().int().min(0).max(EXCURSION_BUDGET_MAX_MINUTES),
  })
  .refine((b) => b.min !== undefined || b.max !== undefined, { error: 'rule.excursionLimit', path: ['max'] })
  .refine((b) => b.min === undefined || b.max === undefined || b.min < b.max, {
    error: 'rule.numberRange',
    path: ['min'],
  });
export type ExcursionBudget = z.infer<typeof ExcursionBudget>;

/** `/api/equipment/saveEquipment`. */
export const SaveEquipmentRequest = z.object({
  id: Id.optional(),
  typeId: Id,
  serialSuffix: z
    .string()
    .trim()
    .regex(/^\d{4}$/, { error: 'rule.serialSuffix' }),
  name: z.string().trim().min(1).max(100),
  departmentId: z.union([z.literal(''), Id]).optional(),
  groupId: z.union([z.literal(''), Id]).optional(),
  address: z.string().trim().max(255).optional(),
  remarks: z.string().trim().max(255).optional(),
  region: z.string().trim().max(255).optional(),
  useState: z.union([z.literal(1), z.literal(2), z.literal(4)], { error: 'rule.useState' }).optional(),
  attributes: z.record(z.string(), AttributeValue.nullable()).optional(),
  sensorIds: z.array(Id).max(64).optional(),
  excursion: ExcursionBudget.nullable().optional(),
});
export type SaveEquipmentRequest = z.infer<typeof SaveEquipmentRequest>;

export const PageEquipmentRequest = z.object({
  ...Paging,
  typeId: Id.optional(),
  useState: z.coerce.number().int().min(1).max(4).optional(),
  departmentId: Id.optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type PageEquipmentRequest = z.infer<typeof PageEquipmentRequest>;

export const EquipmentBatchTransferRequest = z.object({
  ids: z.array(Id).min(1).max(200),
  toDepartmentId: Id,
  remarks: z.string().trim().max(255).optional(),
});
export type EquipmentBatchTransferRequest = z.infer<typeof EquipmentBatchTransferRequest>;

export interface EquipmentItem {
  id: string;
  typeId: string;
  typeName: string;
  typeCode: string;
  serial: string;
  serialSuffix: string;
  name: string;
  departmentId: string | null;
  departmentName: string;
  groupId: string | null;
  groupName: string;
  address: string;
  region: string;
  remarks: string;
  useState: number;
  sensorCount: number;
  attributeIssueCount: number;
  nextCalibrationTime: number | null;
  createTime: number;
}

export interface EquipmentSensorView {
  id: string;
  deviceId: string;
  deviceSerial: string;
  deviceName: string;
  channel: number;
  name: string;
  unit: string;
  value: number | null;
  updateTime: number | null;
}

export interface EquipmentDetail extends EquipmentItem {
  attributes: Record<string, AttributeValue>;
  attributeIssues: { attributeId: string; name: string; message: string }[];
  type: EquipmentTypeView;
  excursion: ExcursionBudget | null;
  sensors: EquipmentSensorView[];
  alarmSuppressed: boolean;
}

export interface SensorOption extends EquipmentSensorView {
  equipmentId: string | null;
  equipmentName: string;
}

/* Lifecycle records (spec section 3 "Records"). */

const Person = z.string().trim().min(1).max(50);
const Unit = z.string().trim().min(1).max(100);
const Remarks = z.string().trim().max(255).optional();
const RecordBase = { equipmentId: Id, signPassword: z.string().max(64).optional() };

const CalibrationRecord = z.object({
  ...RecordBase,
  kind: z.literal('calibration'),
  calibratedAt: Time,
  nextDueAt: Time,
  institution: z.string().trim().min(1).max(INSTITUTION_MAX),
  certificateUrl: z.union([z.literal(''), CertificateUrl]).optional(),
});
const RepairRecord = z.object({
  ...RecordBase,
  kind: z.literal('repair'),
  unit: Unit,
  person: Person,
  faultTime: Time,
  cause: z.string().trim().min(1).max(255),
  repaired: z.boolean(),
  repairTime: Time.optional(),
});
const MaintenanceRecord = z.object({
  ...RecordBase,
  kind: z.literal('maintenance'),
  unit: Unit,
  person: Person,
  startTime: Time,
  endTime: Time,
  preventive: z.boolean().default(false),
  remarks: Remarks,
});
const ScrapRecord = z.object({
  ...RecordBase,
  kind: z.literal('scrap'),
  scrapType: z.enum(['scrap', 'moveOut']),
  time: Time,
  remarks: Remarks,
});
const TransferRecord = z.object({
  ...RecordBase,
  kind: z.literal('transfer'),
  toDepartmentId: Id,
  time: Time.optional(),
  remarks: Remarks,
});
const PatrolRecord = z.object({
  ...RecordBase,
  kind: z.literal('patrol'),
  planId: Id.optional(),
  time: Time,
  person: Person,
  reading: z.number().finite().optional(),
  condition: z.enum(['normal', 'abnormal']),
  remarks: Remarks,
  photoUrl: z.union([z.literal(''), UploadedFileUrl]).optional(),
});

/** `/api/equipment/addRecord`: one of the record kinds, by `kind`. */
export const AddEquipmentRecordRequest = z
  .discriminatedUnion('kind', [
    CalibrationRecord,
    RepairRecord,
    MaintenanceRecord,
    ScrapRecord,
    TransferRecord,
    PatrolRecord,
  ])
  .superRefine((r, ctx) => {
    if (r.kind === 'calibration' && r.nextDueAt <= r.calibratedAt)
      ctx.addIssue({ code: 'custom', message: 'rule.calibrationDue', path: ['nextDueAt'] });
    if (r.kind === 'repair' && r.repaired && r.repairTime === undefined)
      ctx.addIssue({ code: 'custom', message: 'rule.repairTimeRequired', path: ['repairTime'] });
    if (r.kind === 'repair' && r.repairTime !== undefined && r.repairTime < r.faultTime)
      ctx.addIssue({ code: 'custom', message: 'rule.repairAfterFault', path: ['repairTime'] });
    if (r.kind === 'maintenance' && r.endTime <= r.startTime)
      ctx.addIssue({ code: 'custom', message: 'rule.endAfterStart', path: ['endTime'] });
  });
export type AddEquipmentRecordRequest = z.infer<typeof AddEquipmentRecordRequest>;

export const EquipmentRecordKind = z.enum([
  'calibration',
  'repair',
  'maintenance',
  'scrap',
  'transfer',
  'patrol',
]);
export type EquipmentRecordKind = z.infer<typeof EquipmentRecordKind>;

export const PageEquipmentRecordsRequest = z.object({
  ...Paging,
  equipmentId: Id,
  kind: EquipmentRecordKind.optional(),
});
export type PageEquipmentRecordsRequest = z.infer<typeof PageEquipmentRecordsRequest>;

/** A record on the timeline: the common fields plus the kind's own (as sent to `addRecord`). */
export interface EquipmentRecordView {
  id: string;
  kind: EquipmentRecordKind;
  equipmentId: string;
  time: number;
  createdBy: string | null;
  createdByName: string;
  createTime: number;
  [field: string]: unknown;
}

/* Patrol plans (spec section 5: interval over 6 hours). */

export const SavePatrolPlanRequest = z
  .object({
    id: Id.optional(),
    name: z.string().trim().min(1).max(50),
    equipmentId: Id.optional(),
    groupId: Id.optional(),
    intervalHours: z
      .number()
      .finite()
      .max(8760)
      .refine((h) => h > PATROL_MIN_INTERVAL_HOURS, { error: 'rule.patrolInterval' }),
    startTime: Time.optional(),
    enabled: z.boolean().default(true),
  })
  .refine((p) => (p.equipmentId === undefined) !== (p.groupId === undefined), {
    error: 'rule.patrolTarget',
    path: ['equipmentId'],
  });
export type SavePatrolPlanRequest = z.infer<typeof SavePatrolPlanRequest>;

export const PagePatrolPlansRequest = z.object({ ...Paging, equipmentId: Id.optional() });
export type PagePatrolPlansRequest = z.infer<typeof PagePatrolPlansRequest>;

export const PagePatrolRoundsRequest = z.object({ ...Paging, planId: Id });
/** At most this many past rounds are listed: a 7-hour plan's 500 rounds reach back about 5 months. */
export const PATROL_ROUNDS_MAX = 500;
export type PagePatrolRoundsRequest = z.infer<typeof PagePatrolRoundsRequest>;

export type PatrolRoundState = 'due' | 'done' | 'missed';
export interface PatrolRound {
  startTime: number;
  endTime: number;
  state: PatrolRoundState;
  recordId: string | null;
}

export interface PatrolPlanView {
  id: string;
  name: string;
  equipmentId: string | null;
  equipmentName: string;
  groupId: string | null;
  groupName: string;
  intervalHours: number;
  startTime: number;
  enabled: boolean;
  lastPatrolTime: number | null;
  currentRound: PatrolRound;
}

/* Statistics of the detail page. */

/** A custom statistics period covers at most a year (a leap one) of raw readings. */
export const STATS_MAX_DAYS = 366;

export const EquipmentStatsRequest = z
  .object({
    id: Id,
    period: z.enum(['day', 'week', 'month', 'custom']),
    startTime: Time.optional(),
    endTime: Time.optional(),
  })
  .refine((r) => r.period !== 'custom' || (r.startTime !== undefined && r.endTime !== undefined), {
    error: 'rule.customPeriod',
    path: ['startTime'],
  })
  .refine((r) => r.period !== 'custom' || (r.endTime ?? 0) > (r.startTime ?? 0), {
    error: 'rule.endAfterStart',
    path: ['endTime'],
  })
  .refine(
    (r) => r.period !== 'custom' || (r.endTime ?? 0) - (r.startTime ?? 0) <= STATS_MAX_DAYS * 86_400_000,
    {
      error: 'rule.statsPeriod',
      path: ['endTime'],
    },
  );
export type EquipmentStatsRequest = z.infer<typeof EquipmentStatsRequest>;

export interface EquipmentStats {
  startTime: number;
  endTime: number;
  sensors: {
    sensorId: string;
    name: string;
    unit: string;
    count: number;
    min: number | null;
    max: number | null;
    mean: number | null;
    mkt: number | null;
  }[];
  minutesOutOfRange: number;
  budget: {
    min: number | null;
    max: number | null;
    budgetMinutes: number;
    usedMinutes: number;
    ratio: number;
  } | null;
}

/* Exports (xlsx or csv, through the shared export writer; the export flag and audit signature apply). */

const ExportFields = {
  format: z.enum(AuditExportFormats, { error: 'rule.exportFormat' }),
  /** IANA zone the times in the file are written in; UTC when absent. */
  timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).optional(),
  signPassword: SignPasswordField,
  progressId: ExportProgressField,
};

/** `/api/equipment/exportEquipment`: the list with its filters, in the list's order. */
export const ExportEquipmentRequest = z.object({
  ...ExportFields,
  typeId: Id.optional(),
  useState: z.coerce.number().int().min(1).max(4).optional(),
  departmentId: Id.optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type ExportEquipmentRequest = z.infer<typeof ExportEquipmentRequest>;

/** `/api/equipment/exportRecords`: one equipment's timeline, newest first. */
export const ExportEquipmentRecordsRequest = z.object({
  ...ExportFields,
  equipmentId: Id,
  kind: EquipmentRecordKind.optional(),
});
export type ExportEquipmentRecordsRequest = z.infer<typeof ExportEquipmentRecordsRequest>;

/** Equipment per use state, for the home overview (disposed counted too: it is still on record). */
export interface EquipmentUseStateCounts {
  total: number;
  inUse: number;
  underService: number;
  disposed: number;
  standby: number;
}
