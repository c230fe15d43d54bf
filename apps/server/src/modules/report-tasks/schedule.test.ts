import { describe, expect, it } from 'vitest';
import { localDate, nextRunAfter, periodEndedAt, zonedInstant } from './schedule';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);

describe('backup task schedule', () => {
  it('runs daily at 3 am local, across a month end and a year end', () => {
    expect(iso(nextRunAfter('daily', 'Asia/Shanghai', at('2026-01-31T18:59:59Z')))).toBe(
      '2026-01-31T19:00:00.000Z',
    );
    expect(iso(nextRunAfter('daily', 'Asia/Shanghai', at('2026-01-31T19:00:00Z')))).toBe(
      '2026-02-01T19:00:00.000Z',
    );
    expect(iso(nextRunAfter('daily', 'UTC', at('2026-12-31T05:00:00Z')))).toBe('2027-01-01T03:00:00.000Z');
    expect(iso(nextRunAfter('daily', 'UTC', at('2028-02-28T04:00:00Z')))).toBe('2028-02-29T03:00:00.000Z');
  });

  it('runs weekly on Monday at 2 am local', () => {
    // Wednesday 2026-04-29 in New York (EDT, UTC-4): next Monday 2026-05-04 02:00 EDT.
    expect(iso(nextRunAfter('weekly', 'America/New_York', at('2026-04-29T12:00:00Z')))).toBe(
      '2026-05-04T06:00:00.000Z',
    );
    // Monday 01:59 local is before the run of that Monday; 02:00 is after it.
    expect(iso(nextRunAfter('weekly', 'Asia/Shanghai', at('2026-05-03T17:59:00Z')))).toBe(
      '2026-05-03T18:00:00.000Z',
    );
    expect(iso(nextRunAfter('weekly', 'Asia/Shanghai', at('2026-05-03T18:00:00Z')))).toBe(
      '2026-05-10T18:00:00.000Z',
    );
  });

  it('runs monthly on the 1st at 1 am local, whatever the month length', () => {
    expect(iso(nextRunAfter('monthly', 'Asia/Shanghai', at('2026-01-31T12:00:00Z')))).toBe(
      '2026-01-31T17:00:00.000Z',
    );
    expect(iso(nextRunAfter('monthly', 'Asia/Shanghai', at('2026-01-31T17:00:00Z')))).toBe(
      '2026-02-28T17:00:00.000Z',
    );
    expect(iso(nextRunAfter('monthly', 'America/New_York', at('2026-12-15T00:00:00Z')))).toBe(
      '2027-01-01T06:00:00.000Z',
    );
  });

  it('keeps local hours over the Berlin daylight-saving changes (last Sunday of March and October)', () => {
    // 2026-03-29 02:00 CET jumps to 03:00 CEST. The run of the 29th is 03:00 CEST = 01:00 UTC;
    // the day before it was 03:00 CET = 02:00 UTC.
    expect(iso(nextRunAfter('daily', 'Europe/Berlin', at('2026-03-28T12:00:00Z')))).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(iso(nextRunAfter('daily', 'Europe/Berlin', at('2026-03-27T12:00:00Z')))).toBe(
      '2026-03-28T02:00:00.000Z',
    );
    // 2026-10-25 03:00 CEST falls back to 02:00 CET: 03:00 local that day is 02:00 UTC.
    expect(iso(nextRunAfter('daily', 'Europe/Berlin', at('2026-10-24T12:00:00Z')))).toBe(
      '2026-10-25T02:00:00.000Z',
    );
    expect(iso(nextRunAfter('daily', 'Europe/Berlin', at('2026-10-23T12:00:00Z')))).toBe(
      '2026-10-24T01:00:00.000Z',
    );
    // The day around the change is 23 and 25 hours long.
    const spring = periodEndedAt('daily', 'Europe/Berlin', at('2026-03-30T01:00:00Z'));
    expect(spring.endTime - spring.startTime).toBe(23 * 3_600_000);
    const autumn = periodEndedAt('daily', 'Europe/Berlin', at('2026-10-26T02:00:00Z'));
    expect(autumn.endTime - autumn.startTime).toBe(25 * 3_600_000);
  });

  it('moves a wall time skipped by a jump forward and takes the first of a repeated one (New York)', () => {
    // 2026-03-08 02:30 does not exist in New York: 03:30 EDT.
    expect(iso(zonedInstant({ year: 2026, month: 3, day: 8 }, 2, 'America/New_York'))).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    // 2026-11-01 01:00 happens twice: the first (EDT) counts.
    expect(iso(zonedInstant({ year: 2026, month: 11, day: 1 }, 1, 'America/New_York'))).toBe(
      '2026-11-01T05:00:00.000Z',
    );
    // The monthly run of 1 November is that first 1 am.
    expect(iso(nextRunAfter('monthly', 'America/New_York', at('2026-10-20T00:00:00Z')))).toBe(
      '2026-11-01T05:00:00.000Z',
    );
  });

  it('covers the period just ended, local midnight to local midnight', () => {
    expect(periodEndedAt('daily', 'Asia/Shanghai', at('2026-03-01T19:00:00Z'))).toEqual({
      startTime: at('2026-02-28T16:00:00Z'),
      endTime: at('2026-03-01T16:00:00Z'),
    });
    // Weekly, run on Monday 2026-05-04: Monday 27 April to Monday 4 May.
    expect(periodEndedAt('weekly', 'UTC', at('2026-05-04T02:00:00Z'))).toEqual({
      startTime: at('2026-04-27T00:00:00Z'),
      endTime: at('2026-05-04T00:00:00Z'),
    });
    // Monthly, run on 1 March in a leap year: all of February.
    expect(periodEndedAt('monthly', 'UTC', at('2028-03-01T01:00:00Z'))).toEqual({
      startTime: at('2028-02-01T00:00:00Z'),
      endTime: at('2028-03-01T00:00:00Z'),
    });
    // A run made late (the server was down) still covers the period it was due for.
    expect(periodEndedAt('monthly', 'Asia/Shanghai', at('2026-01-31T17:00:00Z')).endTime).toBe(
      at('2026-01-31T16:00:00Z'),
    );
    expect(localDate(at('2026-01-31T16:00:00Z'), 'Asia/Shanghai')).toEqual({ year: 2026, month: 2, day: 1 });
  });
});
