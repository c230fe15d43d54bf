import type { ReportFrequency } from '@coldchain/contract';

/*
 * When backup tasks run and which period a run covers, in the task's IANA time zone: daily at
 * 3 am, weekly on Monday at 2 am, monthly on the 1st at 1 am (issue 15). Periods run from local
 * midnight to local midnight. Wall times are turned into instants as Temporal's "compatible"
 * rule does: a wall time skipped by a daylight-saving jump is moved forward by the jump, one that
 * occurs twice is the earlier.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The hour (local) each frequency runs at. */
export const RUN_HOUR: Record<ReportFrequency, number> = { monthly: 1, weekly: 2, daily: 3 };

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at `ms`, as if it were UTC (milliseconds dropped). */
function wallClock(ms: number, timeZone: string): number {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
}

/** Local time minus UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return wallClock(whole, timeZone) - whole;
}

/** The instant the clock in `timeZone` reads `date` at `hour`:00. */
export function zonedInstant(date: LocalDate, hour: number, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour);
  const before = wall - offsetAt(wall - DAY, timeZone);
  const after = wall - offsetAt(wall + DAY, timeZone);
  const valid = [before, after].filter((t) => wallClock(t, timeZone) === wall);
  // Both valid: the hour occurs twice (autumn), the first counts. None: it was skipped (spring),
  // and `before` is it moved forward by the jump.
  return valid.length ? Math.min(...valid) : before;
}

/** The local calendar date of `ms` in `timeZone`. */
export function localDate(ms: number, timeZone: string): LocalDate {
  const d = new Date(wallClock(ms, timeZone));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** `date` moved by whole days or months on the calendar (not by 24-hour steps). */
export function shift(date: LocalDate, days: number, months = 0): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1 + months, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Monday 1 ... Sunday 7 of a calendar date. */
function isoWeekday(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() || 7;
}

/** The local date on which the occurrence on or after `date` falls. */
function occurrenceOnOrAfter(frequency: ReportFrequency, date: LocalDate): LocalDate {
  if (frequency === 'daily') return date;
  if (frequency === 'weekly') return shift(date, (8 - isoWeekday(date)) % 7);
  return date.day === 1 ? date : { ...shift({ ...date, day: 1 }, 0, 1) };
}

/** The first scheduled run strictly after `afterMs`. */
export function nextRunAfter(frequency: ReportFrequency, timeZone: string, afterMs: number): number {
  let date = occurrenceOnOrAfter(frequency, localDate(afterMs, timeZone));
  for (;;) {
    const at = zonedInstant(date, RUN_HOUR[frequency], timeZone);
    if (at > afterMs) return at;
    date = occurrenceOnOrAfter(frequency, shift(date, 1));
  }
}

/**
 * The period just ended at `ms`: yesterday (daily), last Monday to Monday (weekly), last month
 * (monthly), local midnight to local midnight. A scheduled run passes its scheduled instant, so a
 * run made late (server down at 1 am) still covers the period it was due for.
 */
export function periodEndedAt(
  frequency: ReportFrequency,
  timeZone: string,
  ms: number,
): { startTime: number; endTime: number } {
  const today = localDate(ms, timeZone);
  let end: LocalDate;
  let start: LocalDate;
  if (frequency === 'daily') {
    end = today;
    start = shift(today, -1);
  } else if (frequency === 'weekly') {
    end = shift(today, 1 - isoWeekday(today));
    start = shift(end, -7);
  } else {
    end = { ...today, day: 1 };
    start = shift(end, 0, -1);
  }
  return { startTime: zonedInstant(start, 0, timeZone), endTime: zonedInstant(end, 0, timeZone) };
}
