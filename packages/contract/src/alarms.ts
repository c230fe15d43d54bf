import { z } from 'zod';
import { ExportProgressField } from './export-progress';
import { EpochMs, MAX_INSTANT_MS } from './rules';
import type { SensorEquipmentView } from './sensor-equipment';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** `alarmType` values (API.md). */
export const AlarmTypes = [
  'overLimit',
  'preAlarm',
  'powerOff',
  'offline',
  'abnormal',
  'online',
  'call',
  'lowBattery',
] as const;
export type AlarmType = (typeof AlarmTypes)[number];

/** Types judged on sensor values; the others come from device events or the offline sweep. */
export const ValueAlarmTypes = ['overLimit', 'preAlarm', 'abnormal'] as const satisfies readonly AlarmType[];

export const AlarmChannels = ['email', 'sms', 'call', 'wechat', 'whatsapp'] as const;
export type AlarmChannel = (typeof AlarmChannels)[number];

/** Alarm resolve state (spec section 4): pending, in progress, resolved, expired, normalized. */
export const ResolveState = {
  Pending: 1,
  InProgress: 2,
  Resolved: 3,
  Expired: 4,
  Normalized: 5,
} as const;
export type ResolveState = (typeof ResolveState)[keyof typeof ResolveState];

export const AlarmLimits = { levelMin: 1, levelMax: 3, repeatMin: 1, repeatMax: 99 } as const;

const TIME_POINT = /^([01]\d|2[0-3]):[0-5]\d$/;

/** 'HH:mm' -> minutes after midnight. */
export function minutesOfDay(point: string): number {
  const [h, m] = point.split(':').map(Number);
  return h! * 60 + m!;
}

export const TimePeriod = z.object({
  start: z.string().regex(TIME_POINT, { error: 'rule.timePoint' }),
  end: z.string().regex(TIME_POINT, { error: 'rule.timePoint' }),
});
export type TimePeriod = z.infer<typeof TimePeriod>;

/**
 * Minute ranges [from, to) a period covers; a period whose end is before its start runs over
 * midnight (22:00-06:00) and covers two ranges.
 */
export function periodRanges(period: TimePeriod): [number, number][] {
  const start = minutesOfDay(period.start);
  const end = minutesOfDay(period.end);
  return end > start
    ? [[start, end]]
    : [
        [start, 1440],
        [0, end],
      ];
}

/** Spec section 5 "Repeated time point selected": a period of zero length, or periods sharing a time. */
export function hasRepeatedTimePoint(periods: TimePeriod[]): boolean {
  if (periods.some((p) => p.start === p.end)) return true;
  const ranges = periods.flatMap(periodRanges).sort((a, b) => a[0] - b[0]);
  return ranges.some((r, i) => i > 0 && r[0] < ranges[i - 1]![1]);
}

const Limit = z.coerce.number().min(-1_000_000).max(1_000_000);

/**
 * Who an escalation to `level` (2 or 3) reaches, and how: a call tree (level 2 the department
 * head by phone call, level 3 the quality manager). A level not listed notifies the setting's
 * own notifiers and channels.
 */
export const EscalationLevel = z.object({
  level: z.coerce.number().int().min(2).max(AlarmLimits.levelMax),
  notifierIds: z.array(Id).min(1).max(100),
  channels: z.array(z.enum(AlarmChannels)).min(1).max(AlarmChannels.length),
});
export type EscalationLevel = z.infer<typeof EscalationLevel>;

/**
 * Why an alarm ended other than by its condition coming back: its rule was disabled, deleted or
 * edited, or its channel switched off, by a person (`endedBy`). Such an alarm is never "normalized".
 */
export const AlarmEndReasons = [
  'ruleDisabled',
  'ruleDeleted',
  'ruleEdited',
  'channelDisabled',
  // A shipment's own alarm setting on a travelling monitor, ended at arrival or cancel (modules/logistics).
  'shipmentEnded',
] as const;
export type AlarmEndReason = (typeof AlarmEndReasons)[number];

/**
 * `/api/deviceAlarmRule/saveAlarmSetting` (API.md), plus optional `id` (edit), `hysteresis`,
 * `repeatIntervalSeconds`, `escalateAfterSeconds`, `periods`, `weekdays` and `timeZone`.
 * `timeSlot` is `allDay` (default) or `periods`; weekdays 1-7 are Monday-Sunday (spec section 9).
 */
/** The rule of a setting, shared by the single and the batch save. */
const alarmRuleFields = {
  // level and repeat are plain numbers so that a missing one reads "is required", not "wrong type".
  level: z.number().int().min(AlarmLimits.levelMin).max(AlarmLimits.levelMax),
  alarmType: z.enum(AlarmTypes),
  min: Limit.optional(),
  max: Limit.optional(),
  preMin: Limit.optional(),
  preMax: Limit.optional(),
  delaySeconds: z.coerce.number().int().min(0).max(86_400).default(0),
  hysteresis: z.coerce.number().min(0).max(1_000).default(0),
  repeat: z.number().int().min(AlarmLimits.repeatMin).max(AlarmLimits.repeatMax),
  repeatIntervalSeconds: z.coerce.number().int().min(60).max(86_400).default(600),
  /** 0 = no escalation. */
  escalateAfterSeconds: z.coerce.number().int().min(0).max(604_800).default(0),
  channels: z.array(z.enum(AlarmChannels)).max(AlarmChannels.length),
  timeSlot: z.enum(['allDay', 'periods']).optional(),
  periods: z.array(TimePeriod).max(12).default([]),
  weekdays: z.array(z.coerce.number().int().min(1).max(7)).min(1).max(7).default([1, 2, 3, 4, 5, 6, 7]),
  timeZone: z.string().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).default('UTC'),
  notifierIds: z.array(Id).max(100),
  /** Optional: the people and channels of escalation levels 2 and 3 (`escalateAfterSeconds` paces them). */
  escalation: z.array(EscalationLevel).max(2).default([]),
  enabled: z.boolean().default(true),
};

type AlarmRule = z.infer<z.ZodObject<typeof alarmRuleFields>>;

/** The checks across fields of a rule (spec section 5), for both saves. */
function checkRule(s: AlarmRule, ctx: z.RefinementCtx) {
  const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
  if (s.min !== undefined && s.max !== undefined && s.min >= s.max) issue('rule.minMax', 'max');
  for (const key of ['preMin', 'preMax'] as const) {
    const v = s[key];
    if (v === undefined) continue;
    if ((s.min !== undefined && v < s.min) || (s.max !== undefined && v > s.max)) issue('rule.preAlarm', key);
  }
  if (s.preMin !== undefined && s.preMax !== undefined && s.preMin >= s.preMax)
    issue('rule.minMax', 'preMax');
  if (s.alarmType === 'overLimit' && s.min === undefined && s.max === undefined)
    issue('rule.limitRequired', 'max');
  if (s.alarmType === 'preAlarm' && s.preMin === undefined && s.preMax === undefined)
    issue('rule.limitRequired', 'preMax');
  const lo = s.preMin ?? s.min;
  const hi = s.preMax ?? s.max;
  if (lo !== undefined && hi !== undefined && lo + s.hysteresis >= hi - s.hysteresis)
    issue('rule.hysteresis', 'hysteresis');
  if (new Set(s.channels).size !== s.channels.length) issue('rule.repeatedItem', 'channels');
  if (new Set(s.notifierIds).size !== s.notifierIds.length) issue('rule.repeatedItem', 'notifierIds');
  if (new Set(s.weekdays).size !== s.weekdays.length) issue('rule.repeatedItem', 'weekdays');
  if (new Set(s.escalation.map((e) => e.level)).size !== s.escalation.length)
    issue('rule.repeatedItem', 'escalation');
  for (const e of s.escalation) {
    if (new Set(e.channels).size !== e.channels.length) issue('rule.repeatedItem', 'escalation');
    if (new Set(e.notifierIds).size !== e.notifierIds.length) issue('rule.repeatedItem', 'escalation');
  }
  const slot = s.timeSlot ?? (s.periods.length > 0 ? 'periods' : 'allDay');
  if (slot === 'periods' && s.periods.length === 0) issue('rule.periodsRequired', 'periods');
  if (hasRepeatedTimePoint(s.periods)) issue('rule.repeatedTimePoint', 'periods');
}

export const SaveAlarmSettingRequest = z
  .object({
    id: Id.optional(),
    carrier: z.enum(['sensor', 'device']),
    targetId: Id,
    ...alarmRuleFields,
  })
  .superRefine(checkRule);
export type SaveAlarmSettingRequest = z.infer<typeof SaveAlarmSettingRequest>;

export const AlarmIdRequest = z.object({ id: Id });
export type AlarmIdRequest = z.infer<typeof AlarmIdRequest>;

/** `/api/deviceAlarmRule/alarmList`: the settings of one device (and its sensors) or one sensor. */
export const AlarmSettingListRequest = z
  .object({
    deviceId: Id.optional(),
    sensorId: Id.optional(),
    pageNum: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((r) => r.deviceId !== undefined || r.sensorId !== undefined, {
    error: 'rule.alarmListTarget',
    path: ['deviceId'],
  });
export type AlarmSettingListRequest = z.infer<typeof AlarmSettingListRequest>;

export const PageAlarmsRequest = z
  .object({
    pageNum: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
    resolveState: z.coerce.number().int().min(1).max(5).optional(),
    alarmType: z.enum(AlarmTypes).optional(),
    deviceId: Id.optional(),
    startTime: EpochMs.optional(),
    endTime: EpochMs.optional(),
  })
  .refine((r) => r.startTime === undefined || r.endTime === undefined || r.endTime > r.startTime, {
    error: 'rule.timeRange',
    path: ['endTime'],
  });
export type PageAlarmsRequest = z.infer<typeof PageAlarmsRequest>;

/** `/api/alarm/resolveAlarm`: who resolved is the caller; the cause is required for attribution. */
export const ResolveAlarmRequest = z.object({
  id: Id,
  resolveType: z.string().trim().min(1).max(50),
  cause: z.string().trim().min(1).max(500),
  action: z.string().trim().max(500).default(''),
  signPassword: SignPasswordField,
});

/** Channels a batch setting can name: a monitor has at most this many sensors. */
export const ALARM_BATCH_MAX_CHANNEL = 64;

/**
 * `/api/deviceAlarmRule/batchSaveAlarmSetting` (spec section 2 dialogs): the same rule on every
 * selected device (`carrier: 'device'`) or on the sensor of channel `channel` of each of them
 * (`carrier: 'channel'`). All or nothing.
 */
export const BatchSaveAlarmSettingRequest = z
  .object({
    deviceIds: z.array(Id, { error: 'rule.selectDevices' }).min(1, { error: 'rule.selectDevices' }).max(500),
    carrier: z.enum(['device', 'channel']),
    channel: z.coerce.number().int().min(1).max(ALARM_BATCH_MAX_CHANNEL).optional(),
    ...alarmRuleFields,
  })
  .superRefine((s, ctx) => {
    checkRule(s, ctx);
    if (s.carrier === 'channel' && s.channel === undefined)
      ctx.addIssue({ code: 'custom', message: 'rule.channelRequired', path: ['channel'] });
    if (new Set(s.deviceIds).size !== s.deviceIds.length)
      ctx.addIssue({ code: 'custom', message: 'rule.repeatedItem', path: ['deviceIds'] });
  });
export type BatchSaveAlarmSettingRequest = z.infer<typeof BatchSaveAlarmSettingRequest>;

export const AlarmExportFormats = ['xlsx', 'csv', 'pdf'] as const;
/** Longest period one alarm export may cover, as for data exports. */
export const ALARM_EXPORT_MAX_DAYS = 366;
/** Spec section 8's "Select at least one device, time period or record" for a missing period. */
const ExportInstant = z.coerce
  .number({ error: 'rule.selectDevices' })
  .int()
  .nonnegative()
  .max(MAX_INSTANT_MS, { error: 'rule.instant' });

/**
 * `/api/alarm/exportAlarms`: the alarm records of a period (required, as is the format) with the
 * list's filters; the file's texts are in the request's language.
 */
export const ExportAlarmsRequest = z
  .object({
    startTime: ExportInstant,
    endTime: ExportInstant,
    format: z.enum(AlarmExportFormats, { error: 'rule.exportFormat' }),
    resolveState: z.coerce.number().int().min(1).max(5).optional(),
    alarmType: z.enum(AlarmTypes).optional(),
    deviceId: Id.optional(),
    /** IANA zone the times in the file are written in; UTC when absent. */
    timeZone: z.string().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).optional(),
    signPassword: SignPasswordField,
    progressId: ExportProgressField,
  })
  .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] })
  .refine((r) => r.endTime - r.startTime <= ALARM_EXPORT_MAX_DAYS * 86_400_000, {
    error: 'rule.exportPeriod',
    path: ['endTime'],
  });
export type ExportAlarmsRequest = z.infer<typeof ExportAlarmsRequest>;
export type ResolveAlarmRequest = z.infer<typeof ResolveAlarmRequest>;

export interface AlarmSettingView {
  id: string;
  carrier: 'sensor' | 'device';
  targetId: string;
  deviceId: string;
  sensorId: string | null;
  level: number;
  alarmType: AlarmType;
  min: number | null;
  max: number | null;
  preMin: number | null;
  preMax: number | null;
  delaySeconds: number;
  hysteresis: number;
  repeat: number;
  repeatIntervalSeconds: number;
  escalateAfterSeconds: number;
  channels: AlarmChannel[];
  timeSlot: 'allDay' | 'periods';
  periods: TimePeriod[];
  weekdays: number[];
  timeZone: string;
  notifierIds: string[];
  escalation: EscalationLevel[];
  enabled: boolean;
}

export interface AlarmRecordView {
  id: string;
  deviceId: string;
  deviceSerial: string;
  deviceName: string;
  sensorId: string | null;
  channelName: string | null;
  settingId: string | null;
  alarmType: AlarmType;
  level: number;
  alarmTime: number;
  content: { cn: string; en: string };
  count: number;
  /** The latest reading of the excursion. */
  lastValue: number | null;
  /** The reading furthest out (highest above the range, lowest below it); null for device-level alarms. */
  peakValue?: number | null;
  /** Found in data that arrived late: seconds between the reading that raised it and its arrival; null when live. */
  lateBySeconds?: number | null;
  resolveState: number;
  resolverId: string | null;
  /** The resolver's name (joined from users); null while unresolved. */
  resolverName?: string | null;
  resolveTime: number | null;
  resolveType: string | null;
  cause: string | null;
  action: string | null;
  endTime: number | null;
  /** Set when it ended because its rule was disabled, deleted or edited, by `endedByName`. */
  endReason?: AlarmEndReason | null;
  endedById?: string | null;
  endedByName?: string | null;
}

/**
 * What ends an open alarm (`alarmDetail` only). `value`: a reading inside [low, high], the safe
 * range narrowed by the hysteresis band (null: no bound on that side), with the sensor's latest
 * reading; `offline`: the device sends data again; `powerOff`: power returns; `resolveOnly`:
 * nothing ends it but a person resolving it.
 */
export type AlarmClearing =
  | {
      kind: 'value';
      low: number | null;
      high: number | null;
      /** The band's width inside the limits (0: none), so the text can say why the bound is not the limit. */
      hysteresis: number;
      unit: string;
      latestValue: number | null;
      latestTs: number | null;
    }
  | { kind: 'offline' }
  | { kind: 'powerOff' }
  | { kind: 'resolveOnly' };

export interface AlarmDetailView extends AlarmRecordView {
  /** Null once the alarm has ended or when nothing is pending; absent from older servers. */
  clearing?: AlarmClearing | null;
  /** The equipment the alarm's sensor measures, with whether its alarms are paused now. */
  equipment?: SensorEquipmentView | null;
}
