import { STATISTICS_MAX_DAYS } from '@coldchain/contract';
import dayjs, { type Dayjs } from 'dayjs';

export const PRESETS = ['last7', 'last30', 'thisMonth', 'lastMonth', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

export interface Period {
  startTime: number;
  endTime: number;
}

/**
 * The instants of a preset, in the browser's time zone: the last 7 (30) days are today and the
 * days before it, up to now; this month runs from its 1st to now; last month is whole.
 */
export function presetPeriod(preset: Exclude<Preset, 'custom'>, now: Dayjs = dayjs()): Period {
  const today = now.startOf('day');
  switch (preset) {
    case 'last7':
      return { startTime: today.subtract(6, 'day').valueOf(), endTime: now.valueOf() };
    case 'last30':
      return { startTime: today.subtract(29, 'day').valueOf(), endTime: now.valueOf() };
    case 'thisMonth':
      return { startTime: now.startOf('month').valueOf(), endTime: now.valueOf() };
    case 'lastMonth': {
      const start = now.startOf('month').subtract(1, 'month');
      return { startTime: start.valueOf(), endTime: now.startOf('month').valueOf() };
    }
  }
}

/** A custom range of whole days: from the first day's start to the end of the last. */
export function customPeriod(first: Dayjs, last: Dayjs): Period {
  return { startTime: first.startOf('day').valueOf(), endTime: last.add(1, 'day').startOf('day').valueOf() };
}

/** Whether a custom range stays within the longest period the server answers. */
export function withinMaxSpan(period: Period): boolean {
  return period.endTime - period.startTime <= STATISTICS_MAX_DAYS * 86_400_000;
}

/** The browser's IANA zone: the page counts days as the person reading it lives them. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
