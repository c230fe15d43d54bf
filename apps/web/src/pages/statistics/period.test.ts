import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { customPeriod, presetPeriod, withinMaxSpan } from './period';

describe('statistics periods', () => {
  // A Wednesday afternoon in the browser's zone.
  const now = dayjs('2026-03-18T15:30:00');

  it('ends the rolling presets now and starts them at midnight, today counted', () => {
    expect(presetPeriod('last7', now)).toEqual({
      startTime: dayjs('2026-03-12T00:00:00').valueOf(),
      endTime: now.valueOf(),
    });
    expect(presetPeriod('last30', now).startTime).toBe(dayjs('2026-02-17T00:00:00').valueOf());
  });

  it('takes this month up to now and last month whole', () => {
    expect(presetPeriod('thisMonth', now)).toEqual({
      startTime: dayjs('2026-03-01T00:00:00').valueOf(),
      endTime: now.valueOf(),
    });
    expect(presetPeriod('lastMonth', now)).toEqual({
      startTime: dayjs('2026-02-01T00:00:00').valueOf(),
      endTime: dayjs('2026-03-01T00:00:00').valueOf(),
    });
    // January's "last month" is December of the year before.
    expect(presetPeriod('lastMonth', dayjs('2026-01-05T10:00:00')).startTime).toBe(
      dayjs('2025-12-01T00:00:00').valueOf(),
    );
  });

  it('makes a custom range of whole days and refuses more than 366 of them', () => {
    const range = customPeriod(dayjs('2026-03-01T13:00:00'), dayjs('2026-03-07T09:00:00'));
    expect(range).toEqual({
      startTime: dayjs('2026-03-01T00:00:00').valueOf(),
      endTime: dayjs('2026-03-08T00:00:00').valueOf(),
    });
    expect(withinMaxSpan(customPeriod(dayjs('2025-03-18'), dayjs('2026-03-18')))).toBe(true);
    expect(withinMaxSpan(customPeriod(dayjs('2025-03-17'), dayjs('2026-03-18')))).toBe(false);
  });
});
