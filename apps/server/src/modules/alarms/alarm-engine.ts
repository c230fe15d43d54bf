import { type AlarmType, periodRanges, type TimePeriod } from '@coldchain/contract';

/**
 * The alarm state machine of one (setting, sensor), free of I/O so every rule is testable in
 * isolation: normal -> pending (the condition must hold `delayMs` of reading time) -> alarm ->
 * back to normal once the value is inside the safe range narrowed by the hysteresis band.
 * All times are reading times (epoch ms), so back-filled data is judged as it happened. What
 * follows an alarm for the people notified (reminders, escalation) runs on the server's clock
 * instead (alarm-follow-ups.ts).
 */

export interface TimeSlot {
  allDay: boolean;
  periods: TimePeriod[];
  /** 1-7 = Monday-Sunday. */
  weekdays: number[];
  timeZone: string;
}

export interface ValueRule {
  /** The setting's type: `abnormal` judges the sensor's measuring range, the others the limits. */
  kind: 'overLimit' | 'preAlarm' | 'abnormal';
  min: number | null;
  max: number | null;
  preMin: number | null;
  preMax: number | null;
  delayMs: number;
  hysteresis: number;
  level: number;
  slot: TimeSlot;
}

export type Severity = 'pre' | 'alarm';

export interface EngineState {
  phase: 'normal' | 'pending' | 'alarm';
  severity: Severity | null;
  /** Start of the excursion (first out-of-range reading), the dedupe key of its alarm. */
  since: number | null;
  /** While a pre-alarm is active: since when the value has been beyond the alarm limits. */
  upgradeSince: number | null;
  lastTs: number | null;
  /** The reading furthest beyond the limits since the excursion began (the alarm's peak). */
  peak?: number | null;
}

export interface EngineInput {
  ts: number;
  value: number;
  mode: 'normal' | 'loading' | 'defrost' | 'service';
}

export type EngineAction =
  | {
      kind: 'raise';
      alarmType: AlarmType;
      severity: Severity;
      level: number;
      ts: number;
      value: number;
      /** The furthest-out reading of the excursion so far, pending time included. */
      peak: number;
      excursionStart: number;
    }
  | { kind: 'clear'; ts: number; value: number };

export function initialState(): EngineState {
  return {
    phase: 'normal',
    severity: null,
    since: null,
    upgradeSince: null,
    lastTs: null,
  };
}

/** Which limit the value breaks, without hysteresis: entering an excursion is immediate. */
export function classify(
  rule: Pick<ValueRule, 'min' | 'max' | 'preMin' | 'preMax'>,
  value: number,
): Severity | 'ok' {
  if ((rule.min !== null && value < rule.min) || (rule.max !== null && value > rule.max)) return 'alarm';
  if ((rule.preMin !== null && value < rule.preMin) || (rule.preMax !== null && value > rule.preMax))
    return 'pre';
  return 'ok';
}

/**
 * The band an alarm clears in: [lo + h, hi - h] of the innermost limits, so a value hovering at a
 * limit cannot flap; null where the rule has no limit on that side. The alarm detail quotes it
 * (alarmDetail `clearing`), so the engine and what users are told cannot disagree.
 */
export function clearBand(rule: ValueRule): { low: number | null; high: number | null } {
  const lo = rule.preMin ?? rule.min;
  const hi = rule.preMax ?? rule.max;
  return { low: lo === null ? null : lo + rule.hysteresis, high: hi === null ? null : hi - rule.hysteresis };
}

/** How far a value lies beyond the innermost limits (0 inside them). */
function beyondLimits(rule: ValueRule, value: number): number {
  const lo = rule.preMin ?? rule.min;
  const hi = rule.preMax ?? rule.max;
  return Math.max(hi === null ? 0 : value - hi, lo === null ? 0 : lo - value, 0);
}

/** The peak of an excursion: the reading further out, the highest above the range or the lowest below. */
export function fartherOut(rule: ValueRule, peak: number, value: number): number {
  return beyondLimits(rule, value) > beyondLimits(rule, peak) ? value : peak;
}

export function isCleared(rule: ValueRule, value: number): boolean {
  const { low, high } = clearBand(rule);
  return (low === null || value >= low) && (high === null || value <= high);
}

export function alarmTypeOf(rule: ValueRule, severity: Severity): AlarmType {
  if (rule.kind === 'abnormal') return 'abnormal';
  return severity === 'alarm' ? 'overLimit' : 'preAlarm';
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** Weekday (1-7 = Monday-Sunday) and minute of the day of an instant in a time zone. */
export function localTime(ts: number, timeZone: string): { weekday: number; minute: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ts).map((p) => [p.type, p.value]));
  return { weekday: WEEKDAYS[parts.weekday!]!, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

/**
 * Whether an instant lies in the alarm time slot. The weekday is the instant's own day, so the
 * after-midnight part of an overnight period (22:00-06:00) belongs to the next weekday.
 */
export function inSlot(slot: TimeSlot, ts: number): boolean {
  if (slot.allDay && slot.weekdays.length >= 7) return true;
  const { weekday, minute } = localTime(ts, slot.timeZone);
  if (!slot.weekdays.includes(weekday)) return false;
  if (slot.allDay) return true;
  return slot.periods.some((p) => periodRanges(p).some(([from, to]) => minute >= from && minute < to));
}

/**
 * One reading through the machine. Outside the time slot, and in loading or defrost mode, no
 * alarm is raised and no reminder sent, but an active alarm can still clear.
 */
export function evaluate(
  rule: ValueRule,
  previous: EngineState,
  input: EngineInput,
): { state: EngineState; actions: EngineAction[] } {
  const { ts, value } = input;
  const suppressed = input.mode !== 'normal' || !inSlot(rule.slot, ts);
  const breach = classify(rule, value);
  const state: EngineState = { ...previous, lastTs: ts };
  const actions: EngineAction[] = [];

  const raise = (severity: Severity, excursionStart: number) => {
    Object.assign(state, { phase: 'alarm', severity, upgradeSince: null });
    actions.push({
      kind: 'raise',
      alarmType: alarmTypeOf(rule, severity),
      severity,
      level: rule.level,
      ts,
      value,
      peak: state.peak ?? value,
      excursionStart,
    });
  };

  if (state.phase === 'alarm') {
    if (isCleared(rule, value)) {
      actions.push({ kind: 'clear', ts, value });
      return { state: { ...initialState(), lastTs: ts }, actions };
    }
    state.peak = fartherOut(rule, state.peak ?? value, value);
    if (suppressed) return { state: { ...state, upgradeSince: null }, actions };
    // A pre-alarm whose value goes on beyond the alarm limits becomes an over-limit alarm, after the same delay.
    if (state.severity === 'pre' && breach === 'alarm') {
      state.upgradeSince ??= ts;
      if (ts - state.upgradeSince >= rule.delayMs) raise('alarm', state.since ?? ts);
    } else {
      state.upgradeSince = null;
    }
    // Reminders and escalation are not decided here: they are paced by the server's clock
    // (alarm-follow-ups.ts), since a buffered upload carries many minutes of reading time at once.
    return { state, actions };
  }

  if (breach === 'ok' || suppressed) {
    return { state: { ...initialState(), lastTs: ts }, actions };
  }
  if (state.phase === 'normal') {
    Object.assign(state, { phase: 'pending', severity: breach, since: ts, peak: value });
  } else {
    state.peak = fartherOut(rule, state.peak ?? value, value);
    if (breach === 'alarm') state.severity = 'alarm';
  }
  if (ts - state.since! >= rule.delayMs) raise(state.severity!, state.since!);
  return { state, actions };
}

/**
 * The machine takes over an alarm raised outside it: a back-filled excursion still out when the
 * late data ends, which the readings it has judged since have not ended. From now on the next
 * reading in the clearing band ends it, and no second alarm is raised for the same excursion.
 */
export function adoptAlarm(state: EngineState, raise: Extract<EngineAction, { kind: 'raise' }>): EngineState {
  return {
    ...state,
    phase: 'alarm',
    severity: raise.severity,
    since: raise.excursionStart,
    upgradeSince: null,
  };
}

/** Whether the machine holds an alarm (the device shows state 2 while any does). */
export function isActive(state: EngineState): boolean {
  return state.phase === 'alarm';
}
