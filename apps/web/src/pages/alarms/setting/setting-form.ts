import {
  type AlarmChannel,
  type AlarmSettingView,
  type AlarmType,
  BatchSaveAlarmSettingRequest,
  SaveAlarmSettingRequest,
  type TimePeriod,
} from '@coldchain/contract';

/** The alarm-setting form's values (spec section 5); numbers are null when left empty. */
export interface SettingValues {
  carrier: 'sensor' | 'device';
  sensorId?: string;
  /** Batch only: the channel number whose sensor each selected monitor gets the setting on. */
  channel?: number | null;
  level?: number;
  alarmType?: AlarmType;
  min?: number | null;
  max?: number | null;
  preMin?: number | null;
  preMax?: number | null;
  delaySeconds?: number | null;
  hysteresis?: number | null;
  repeat?: number | null;
  repeatIntervalSeconds?: number | null;
  /** 0 or empty: never escalate. */
  escalateAfterSeconds?: number | null;
  /** Who escalation levels 2 and 3 reach (call tree); a level left empty reaches the setting's own. */
  level2Notifiers?: string[];
  level2Channels?: AlarmChannel[];
  level3Notifiers?: string[];
  level3Channels?: AlarmChannel[];
  timeSlot: 'allDay' | 'periods';
  periods?: Partial<TimePeriod>[];
  weekdays?: number[];
  channels?: AlarmChannel[];
  notifierIds?: string[];
  enabled?: boolean;
  /** Zone the periods are read in: the setting's own when editing, else the browser's. */
  timeZone?: string;
}

export interface FieldError {
  /** Form field path, e.g. ['max'] or ['periods', 0, 'start']. */
  name: (string | number)[];
  /** i18n key under `alarms.`. */
  key: string;
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? undefined : v);

/** Keys of the contract's messages (rule.*) for issues that carry none. */
const FIELD_KEYS: Record<string, string> = {
  level: 'rule.level',
  repeat: 'rule.repeat',
  weekdays: 'rule.weekdays',
  alarmType: 'rule.required',
};

export const ESCALATION_LEVELS = [2, 3] as const;

const levelNotifiers = (values: SettingValues, level: 2 | 3) =>
  (level === 2 ? values.level2Notifiers : values.level3Notifiers) ?? [];
const levelChannels = (values: SettingValues, level: 2 | 3) =>
  (level === 2 ? values.level2Channels : values.level3Channels) ?? [];

/** The escalation levels that name people; one naming none reaches the setting's own notifiers. */
function escalationOf(values: SettingValues) {
  return ESCALATION_LEVELS.filter((level) => levelNotifiers(values, level).length > 0).map((level) => ({
    level,
    notifierIds: levelNotifiers(values, level),
    channels: levelChannels(values, level),
  }));
}

export function toRequest(values: SettingValues, deviceId: string, id?: string): Record<string, unknown> {
  const slot = values.timeSlot ?? 'allDay';
  return {
    ...(id ? { id } : {}),
    carrier: values.carrier,
    targetId: values.carrier === 'device' ? deviceId : values.sensorId,
    level: num(values.level),
    alarmType: values.alarmType,
    min: num(values.min),
    max: num(values.max),
    preMin: num(values.preMin),
    preMax: num(values.preMax),
    delaySeconds: num(values.delaySeconds) ?? 0,
    hysteresis: num(values.hysteresis) ?? 0,
    repeat: num(values.repeat),
    repeatIntervalSeconds: num(values.repeatIntervalSeconds) ?? 600,
    escalateAfterSeconds: num(values.escalateAfterSeconds) ?? 0,
    escalation: escalationOf(values),
    channels: values.channels ?? [],
    timeSlot: slot,
    periods:
      slot === 'periods'
        ? (values.periods ?? []).map((p) => ({ start: p?.start ?? '', end: p?.end ?? '' }))
        : [],
    weekdays: values.weekdays ?? [],
    notifierIds: values.notifierIds ?? [],
    enabled: values.enabled ?? true,
    timeZone: values.timeZone ?? browserTimeZone(),
  };
}

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Checks the form with the contract's schema; errors name the form fields to mark. */
export function validateSetting(
  values: SettingValues,
  deviceId: string,
  id?: string,
): { ok: true; data: SaveAlarmSettingRequest } | { ok: false; errors: FieldError[] } {
  const parsed = SaveAlarmSettingRequest.safeParse(toRequest(values, deviceId, id));
  const missing = missingLevelChannels(values);
  if (parsed.success && missing.length === 0) return { ok: true, data: parsed.data };
  return {
    ok: false,
    errors: [...(parsed.success ? [] : fieldErrors(withoutLevelChannels(parsed.error.issues))), ...missing],
  };
}

/** The contract's "a level needs a channel", said instead on the level's own field (missingLevelChannels). */
const withoutLevelChannels = <T extends { path: PropertyKey[] }>(issues: T[]) =>
  issues.filter((i) => !(i.path[0] === 'escalation' && i.path[2] === 'channels'));

/** A level that names people must say how to reach them (the contract's check, on the form's field). */
function missingLevelChannels(values: SettingValues): FieldError[] {
  return ESCALATION_LEVELS.filter(
    (level) => levelNotifiers(values, level).length > 0 && levelChannels(values, level).length === 0,
  ).map((level) => ({ name: [`level${level}Channels`], key: 'rule.required' }));
}

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const field = String(path[0] ?? '');
    const name =
      field === 'targetId'
        ? ['sensorId']
        : field === 'escalation'
          ? ['escalateAfterSeconds']
          : path.length > 0
            ? path
            : ['alarmType'];
    const key = issue.message.startsWith('rule.') ? issue.message : (FIELD_KEYS[field] ?? 'rule.invalid');
    return { name, key };
  });
}

/**
 * The batch form (monitor list): the same values on the selected monitors; "sensor" in the form
 * means a channel number, since each monitor has its own sensors.
 */
export function validateBatchSetting(
  values: SettingValues,
  deviceIds: string[],
): { ok: true; data: BatchSaveAlarmSettingRequest } | { ok: false; errors: FieldError[] } {
  const { targetId: _, carrier: __, ...rule } = toRequest(values, '');
  const parsed = BatchSaveAlarmSettingRequest.safeParse({
    ...rule,
    deviceIds,
    carrier: values.carrier === 'device' ? 'device' : 'channel',
    channel: values.carrier === 'device' ? undefined : num(values.channel),
  });
  const missing = missingLevelChannels(values);
  if (parsed.success && missing.length === 0) return { ok: true, data: parsed.data };
  return {
    ok: false,
    errors: [...(parsed.success ? [] : fieldErrors(withoutLevelChannels(parsed.error.issues))), ...missing],
  };
}

export function defaultValues(sensorId: string | undefined, me: string | undefined): SettingValues {
  return {
    carrier: 'sensor',
    sensorId,
    level: 1,
    alarmType: 'overLimit',
    delaySeconds: 0,
    hysteresis: 0,
    repeat: 3,
    repeatIntervalSeconds: 600,
    escalateAfterSeconds: 0,
    timeSlot: 'allDay',
    periods: [],
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    channels: ['email'],
    notifierIds: me ? [me] : [],
    enabled: true,
  };
}

export function valuesOf(setting: AlarmSettingView): SettingValues {
  return {
    carrier: setting.carrier,
    sensorId: setting.sensorId ?? undefined,
    level: setting.level,
    alarmType: setting.alarmType,
    min: setting.min,
    max: setting.max,
    preMin: setting.preMin,
    preMax: setting.preMax,
    delaySeconds: setting.delaySeconds,
    hysteresis: setting.hysteresis,
    repeat: setting.repeat,
    repeatIntervalSeconds: setting.repeatIntervalSeconds,
    // Kept through an edit: leaving them out would switch escalation off unasked.
    escalateAfterSeconds: setting.escalateAfterSeconds,
    ...levelValues(setting),
    timeSlot: setting.timeSlot,
    periods: setting.periods,
    weekdays: setting.weekdays,
    channels: setting.channels,
    notifierIds: setting.notifierIds,
    enabled: setting.enabled,
    timeZone: setting.timeZone,
  };
}

function levelValues(setting: AlarmSettingView): Partial<SettingValues> {
  const of = (level: number) => (setting.escalation ?? []).find((e) => e.level === level);
  return {
    level2Notifiers: of(2)?.notifierIds ?? [],
    level2Channels: of(2)?.channels ?? [],
    level3Notifiers: of(3)?.notifierIds ?? [],
    level3Channels: of(3)?.channels ?? [],
  };
}
