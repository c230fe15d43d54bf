import { describe, expect, it } from 'vitest';
import { READING_HOLD_MS, sampleAtInterval, tableIntervalMinutes, timeOutOfRangeMs } from './report-figures';

const MIN = 60_000;

describe('report figures', () => {
  it('counts time out of range until the next reading, the period end or the hold limit', () => {
    const points: Array<[number, number]> = [
      [0, 5],
      [5 * MIN, 9], // out for 5 min
      [10 * MIN, 1], // out until the gap's hold limit (2 h), not the 3 h to the next reading
      [190 * MIN, 5],
      [200 * MIN, 12], // out until the end (at 203 min)
    ];
    const expected = 5 * MIN + READING_HOLD_MS + 3 * MIN;
    expect(timeOutOfRangeMs(points, 2, 8, 203 * MIN)).toBe(expected);
    expect(timeOutOfRangeMs(points, null, 8, 203 * MIN)).toBe(5 * MIN + 3 * MIN);
    expect(timeOutOfRangeMs(points, null, null, 203 * MIN)).toBe(0);
  });

  it('samples the first reading of each step from the period start', () => {
    const points = Array.from({ length: 12 }, (_, i): [number, number] => [i * 5 * MIN, i]);
    expect(sampleAtInterval(points, 0, 15 * MIN).map(([, v]) => v)).toEqual([0, 3, 6, 9]);
    expect(sampleAtInterval(points, 0, null)).toHaveLength(12);
  });

  it('picks the smallest standard step that keeps the table within its row limit', () => {
    const steps = [5, 10, 15, 30, 60];
    expect(tableIntervalMinutes(30, 100_000, 365 * 86_400_000, steps)).toBe(30);
    expect(tableIntervalMinutes(undefined, 500, 86_400_000, steps)).toBeNull();
    // A year at 5 minutes: 105 120 readings; hourly rows are 8 760.
    expect(tableIntervalMinutes(undefined, 105_120, 365 * 86_400_000, steps)).toBe(60);
  });
});

describe('report times', () => {
  it('writes instants as year-month-day hour:minute:second in the report zone', async () => {
    const { instantFormatter } = await import('./report-time');
    expect(instantFormatter('UTC')(Date.UTC(2026, 2, 2, 0, 30))).toBe('2026-03-02 00:30:00');
    expect(instantFormatter('Asia/Shanghai')(Date.UTC(2026, 2, 2, 16, 5, 9))).toBe('2026-03-03 00:05:09');
  });
});
