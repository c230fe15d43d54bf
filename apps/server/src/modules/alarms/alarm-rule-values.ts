import type { AlarmChannel, AlarmSettingView, AlarmType, SaveAlarmSettingRequest } from '@coldchain/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { companyMembers } from '../companies/companies.table';
import { everyNotifier, presentEscalation, storeEscalation } from './alarm-escalation';
import type { SettingRow } from './alarm-writer';

/*
 * A rule as the console sends it, as it is stored and as it is shown: what every save (one, a
 * batch, the quick edit) shares.
 */

/** Escalation levels are optional: callers inside the server (demo seed) may leave them out. */
type WithOptionalEscalation<T extends { escalation: unknown }> = Omit<T, 'escalation'> &
  Partial<Pick<T, 'escalation'>>;
export type SaveAlarmSettingInput = WithOptionalEscalation<SaveAlarmSettingRequest>;

/** The rule fields both saves share (contract `alarmRuleFields`). */
export type AlarmRule = Omit<SaveAlarmSettingInput, 'id' | 'carrier' | 'targetId'>;

/** Every channel a rule names, its escalation levels' included (the remote alarm check). */
export const channelsOf = (rule: AlarmRule) => [
  ...new Set([...rule.channels, ...(rule.escalation ?? []).flatMap((e) => e.channels)]),
];

/** A stored rule as the console shows it (the list, and the audit trail's before and after). */
export function presentSetting(s: SettingRow): AlarmSettingView {
  return {
    id: idToWire(s.id),
    carrier: s.carrier,
    targetId: idToWire(s.targetId),
    deviceId: idToWire(s.deviceId),
    sensorId: s.sensorId === null ? null : idToWire(s.sensorId),
    level: s.level,
    alarmType: s.alarmType as AlarmType,
    min: s.min,
    max: s.max,
    preMin: s.preMin,
    preMax: s.preMax,
    delaySeconds: s.delaySeconds,
    hysteresis: s.hysteresis,
    repeat: s.repeat,
    repeatIntervalSeconds: s.repeatIntervalSeconds,
    escalateAfterSeconds: s.escalateAfterSeconds,
    channels: s.channels as AlarmChannel[],
    timeSlot: s.allDay ? 'allDay' : 'periods',
    periods: s.periods,
    weekdays: s.weekdays,
    timeZone: s.timeZone,
    notifierIds: s.notifierIds.map(idToWire),
    escalation: presentEscalation(s.escalation),
    enabled: s.enabled,
  };
}

/** The stored columns of a rule; its notifiers must be members of the company. */
export async function ruleValues(db: Db, companyId: number, input: AlarmRule) {
  const rule = storedRuleOf(companyId, input);
  const everyone = notifiersOf(rule);
  if (everyone.length > 0) {
    const members = await db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.userId, everyone)));
    assertAllMembers(everyone, members.length);
  }
  return rule;
}

/** Every person a stored rule may notify, at any level, each once. */
export const notifiersOf = (rule: Pick<StoredRule, 'notifierIds' | 'escalation'>) =>
  everyNotifier(rule.notifierIds, rule.escalation);

/** Refuses a rule of whose `notifiers` fewer than all (`members`) are members of the company. */
export function assertAllMembers(notifiers: number[], members: number) {
  if (members !== notifiers.length) throw new AppError('NOTIFIER_NOT_MEMBER');
}

/**
 * The stored columns of a rule as the console sent it, its notifiers not checked: `ruleValues`
 * checks them, or the caller with a read of its own (`notifiersOf`, `assertAllMembers`).
 */
export function storedRuleOf(companyId: number, input: AlarmRule) {
  const notifierIds = input.notifierIds.map((id) => idFromWire(id)!);
  const escalation = storeEscalation(input.escalation ?? []);
  const allDay = (input.timeSlot ?? (input.periods.length > 0 ? 'periods' : 'allDay')) === 'allDay';
  return {
    companyId,
    level: input.level,
    alarmType: input.alarmType,
    min: input.min ?? null,
    max: input.max ?? null,
    preMin: input.preMin ?? null,
    preMax: input.preMax ?? null,
    delaySeconds: input.delaySeconds,
    hysteresis: input.hysteresis,
    repeat: input.repeat,
    repeatIntervalSeconds: input.repeatIntervalSeconds,
    escalateAfterSeconds: input.escalateAfterSeconds,
    allDay,
    periods: allDay ? [] : input.periods,
    weekdays: [...input.weekdays].sort((a, b) => a - b),
    timeZone: input.timeZone,
    channels: input.channels,
    notifierIds,
    escalation,
    enabled: input.enabled,
  };
}

/** What a save writes into a rule's row: its rule and where it is. */
export type StoredRule = ReturnType<typeof storedRuleOf> &
  Pick<SettingRow, 'carrier' | 'targetId' | 'deviceId' | 'sensorId' | 'updatedAt'>;

/** Every column a save writes; the type fails to check when a stored field is added or dropped. */
export const STORED_RULE_COLUMNS: Record<keyof StoredRule, true> = {
  companyId: true,
  level: true,
  alarmType: true,
  min: true,
  max: true,
  preMin: true,
  preMax: true,
  delaySeconds: true,
  hysteresis: true,
  repeat: true,
  repeatIntervalSeconds: true,
  escalateAfterSeconds: true,
  allDay: true,
  periods: true,
  weekdays: true,
  timeZone: true,
  channels: true,
  notifierIds: true,
  escalation: true,
  enabled: true,
  carrier: true,
  targetId: true,
  deviceId: true,
  sensorId: true,
  updatedAt: true,
};
