import { describe, expect, it } from 'vitest';
import {
  nextRunAfter,
  type OperationSchedule,
  periodEndedBy,
  periodForRunNow,
  periodIndexAt,
  periodStart,
} from './operation-schedule';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('operation report periods', () => {
  it('keeps a daily period at local midnight over a daylight-saving change (23 hours that day)', () => {
    const s: OperationSchedule = {
      duration: 'day',
      startDate: '2026-03-28',
      startHour: 0,
      timeZone: 'Europe/Berlin',
    };
    expect(iso(periodStart(s, 0))).toBe('2026-03-27T23:00:00.000Z');
    expect(iso(periodStart(s, 1))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(periodStart(s, 2))).toBe('2026-03-29T22:00:00.000Z');
    expect(periodStart(s, 2) - periodStart(s, 1)).toBe(23 * HOUR);
    // Autumn: 25 hours.
    const autumn: OperationSchedule = { ...s, startDate: '2026-10-25' };
    expect(periodStart(autumn, 1) - periodStart(autumn, 0)).toBe(25 * HOUR);
  });

  it('ends monthly periods on the last day of shorter months when they start on the 31st', () => {
    const s: OperationSchedule = {
      duration: 'month',
      startDate: '2026-01-31',
      startHour: 8,
      timeZone: 'UTC',
    };
    expect([1, 2, 3, 12].map((k) => iso(periodStart(s, k)))).toEqual([
      '2026-02-28T08:00:00.000Z',
      '2026-03-31T08:00:00.000Z',
      '2026-04-30T08:00:00.000Z',
      '2027-01-31T08:00:00.000Z',
    ]);
    const leap: OperationSchedule = { ...s, startDate: '2028-01-30' };
    expect(iso(periodStart(leap, 1))).toBe('2028-02-29T08:00:00.000Z');
  });

  it('runs weekly at the start hour in the task time zone', () => {
    const s: OperationSchedule = {
      duration: 'week',
      startDate: '2026-11-02',
      startHour: 6,
      timeZone: 'Asia/Shanghai',
    };
    expect(iso(periodStart(s, 1))).toBe('2026-11-08T22:00:00.000Z');
    expect(iso(nextRunAfter(s, Date.UTC(2026, 10, 1)))).toBe('2026-11-08T22:00:00.000Z');
    expect(iso(nextRunAfter(s, Date.UTC(2026, 10, 8, 22)))).toBe('2026-11-15T22:00:00.000Z');
    expect(iso(nextRunAfter(s, Date.UTC(2027, 5, 1)))).toBe('2027-06-06T22:00:00.000Z');
  });

  it('finds the period of any instant, far from the start too', () => {
    const s: OperationSchedule = {
      duration: 'month',
      startDate: '2026-01-15',
      startHour: 0,
      timeZone: 'America/New_York',
    };
    for (const k of [0, 1, 5, 27, 60]) {
      expect(periodIndexAt(s, periodStart(s, k))).toBe(k);
      expect(periodIndexAt(s, periodStart(s, k + 1) - 1)).toBe(k);
    }
    expect(periodIndexAt(s, periodStart(s, 0) - 1)).toBe(-1);
  });

  it('gives a run the period ending at its instant, and "run now" the last ended or the one so far', () => {
    const s: OperationSchedule = { duration: 'day', startDate: '2026-05-01', startHour: 7, timeZone: 'UTC' };
    const run = periodStart(s, 3);
    expect(periodEndedBy(s, run)).toEqual({ startTime: periodStart(s, 2), endTime: run });
    expect(periodEndedBy(s, periodStart(s, 1) - 1)).toBeNull();
    expect(periodForRunNow(s, run + HOUR)).toEqual({ startTime: periodStart(s, 2), endTime: run });
    const early = periodStart(s, 0) + 2 * HOUR;
    expect(periodForRunNow(s, early)).toEqual({ startTime: periodStart(s, 0), endTime: early });
    const before = periodStart(s, 0) - HOUR;
    expect(periodForRunNow(s, before)).toEqual({ startTime: before - 24 * HOUR, endTime: before });
  });
});
