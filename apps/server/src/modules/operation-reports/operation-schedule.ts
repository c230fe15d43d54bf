import type { OperationReportDuration } from '@coldchain/contract';
import { type LocalDate, shift, zonedInstant } from '../report-tasks/schedule';

/*
 * The periods of an operation report task: back to back from the start (a local date and hour in
 * the task's time zone), each a calendar day, week or month long, so they keep their local hour
 * over daylight-saving changes (a day is then 23 or 25 hours). Wall times become instants as the
 * backup schedule does (report-tasks/schedule.ts). A run is made at the end of each period; a
 * monthly task starting on the 31st ends its periods on the last day of shorter months.
 */

export interface OperationSchedule {
  duration: OperationReportDuration;
  startDate: string;
  startHour: number;
  timeZone: string;
}

export interface Period {
  startTime: number;
  endTime: number;
}

const DAY = 86_400_000;
const APPROX_MS: Record<OperationReportDuration, number> = { day: DAY, week: 7 * DAY, month: 30.44 * DAY };

function parseDate(text: string): LocalDate {
  const [year, month, day] = text.split('-').map(Number);
  return { year: year!, month: month!, day: day! };
}

/** The local date on which period `k` (0 = the first) begins. */
function periodDate(first: LocalDate, duration: OperationReportDuration, k: number): LocalDate {
  if (duration === 'day') return shift(first, k);
  if (duration === 'week') return shift(first, 7 * k);
  const month = shift({ ...first, day: 1 }, 0, k);
  const lastDay = shift(month, -1, 1).day;
  return { ...month, day: Math.min(first.day, lastDay) };
}

/** The instant period `k` begins (and period `k - 1` ends). */
export function periodStart(s: OperationSchedule, k: number): number {
  return zonedInstant(periodDate(parseDate(s.startDate), s.duration, k), s.startHour, s.timeZone);
}

/** The index of the period holding `t` (-1 before the first begins). */
export function periodIndexAt(s: OperationSchedule, t: number): number {
  const first = periodStart(s, 0);
  if (t < first) return -1;
  let k = Math.max(0, Math.floor((t - first) / APPROX_MS[s.duration]) - 1);
  while (k > 0 && periodStart(s, k) > t) k--;
  while (periodStart(s, k + 1) <= t) k++;
  return k;
}

/** The first run strictly after `t`: the end of the period in progress (or of the first one). */
export function nextRunAfter(s: OperationSchedule, t: number): number {
  return periodStart(s, Math.max(1, periodIndexAt(s, t) + 1));
}

/** The period that ends at `at` (a run instant) or, for any instant, the last one ended by then. */
export function periodEndedBy(s: OperationSchedule, at: number): Period | null {
  const k = periodIndexAt(s, at);
  if (k < 1) return null;
  return { startTime: periodStart(s, k - 1), endTime: periodStart(s, k) };
}

/**
 * "Run now": the last period that ended; before the first has ended, the period so far (from
 * its start up to now), or, before it has begun, the length of one period up to now.
 */
export function periodForRunNow(s: OperationSchedule, now: number): Period {
  const ended = periodEndedBy(s, now);
  if (ended) return ended;
  const first = periodStart(s, 0);
  if (first < now) return { startTime: first, endTime: now };
  return { startTime: now - Math.round(APPROX_MS[s.duration] / DAY) * DAY, endTime: now };
}
