import { describe, expect, it } from 'vitest';
import { daysOverdue, lateFeeCents, lateFeeOn, utcDay } from './late-fee';

/* Every figure below is worked out by hand in the comment beside it. */

describe('late fee days', () => {
  it('starts the day after the due date, in UTC calendar days', () => {
    expect(daysOverdue('2026-01-10', '2026-01-09')).toBe(0);
    expect(daysOverdue('2026-01-10', '2026-01-10')).toBe(0);
    expect(daysOverdue('2026-01-10', '2026-01-11')).toBe(1);
    // A year later: 365 days (2026 is not a leap year).
    expect(daysOverdue('2026-01-10', '2027-01-10')).toBe(365);
    // 28 Feb -> 1 Mar: two days in a leap year (29 Feb between), one otherwise.
    expect(daysOverdue('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysOverdue('2025-02-28', '2025-03-01')).toBe(1);
  });

  it('counts the day of an instant in UTC, whatever the hour', () => {
    expect(utcDay(Date.UTC(2026, 0, 10, 23, 59, 59, 999))).toBe('2026-01-10');
    expect(utcDay(Date.UTC(2026, 0, 11, 0, 0, 0, 0))).toBe('2026-01-11');
  });

  it('refuses dates that do not exist rather than moving them', () => {
    expect(() => daysOverdue('2026-02-31', '2026-03-05')).toThrow(RangeError);
    expect(() => daysOverdue('10/01/2026', '2026-03-05')).toThrow(RangeError);
  });
});

describe('late fee amounts', () => {
  it('is 5 ten-thousandths of the principal per day', () => {
    // RM1,000.00 = 100 000 sen; x 0.0005 = 50 sen a day.
    expect(lateFeeCents(100_000, 1)).toBe(50n);
    // 30 days: 100 000 x 5 x 30 / 10 000 = 1 500 sen.
    expect(lateFeeCents(100_000, 30)).toBe(1_500n);
    expect(lateFeeCents(100_000, 0)).toBe(0n);
    expect(lateFeeCents(0, 400)).toBe(0n);
  });

  it('rounds half up, to the cent', () => {
    // 999 x 5 / 10 000 = 0.4995 sen -> 0; 1 000 -> 0.5 -> 1; 1 001 -> 0.5005 -> 1.
    expect(lateFeeCents(999, 1)).toBe(0n);
    expect(lateFeeCents(1_000, 1)).toBe(1n);
    expect(lateFeeCents(1_001, 1)).toBe(1n);
    // 2 999 -> 1.4995 -> 1; 3 000 -> 1.5 -> 2.
    expect(lateFeeCents(2_999, 1)).toBe(1n);
    expect(lateFeeCents(3_000, 1)).toBe(2n);
  });

  it('rounds once at the end, never per day', () => {
    // 1 000 sen for 3 days: 1 000 x 5 x 3 / 10 000 = 1.5 -> 2 (per-day rounding would say 3).
    expect(lateFeeCents(1_000, 3)).toBe(2n);
    // 199 sen for 10 days: 199 x 5 x 10 / 10 000 = 0.995 -> 1 (per day: 0.0995 -> 0, so 0).
    expect(lateFeeCents(199, 10)).toBe(1n);
  });

  it('charges simple interest over a long overdue period, exactly', () => {
    // RM12,345.67 = 1 234 567 sen, 730 days: 1 234 567 x 5 = 6 172 835; x 730 = 4 506 169 550;
    // / 10 000 = 450 616.955 -> 450 617 sen = RM4,506.17.
    expect(lateFeeCents(1_234_567, 730)).toBe(450_617n);
    // Ten years: 100 000 sen x 5 x 3 652 / 10 000 = 182 600 sen, nearly twice the principal.
    expect(lateFeeCents(100_000, 3_652)).toBe(182_600n);
  });

  it('stays exact beyond the integers a float holds', () => {
    // 2^53 + 1 sen for 1 day: 9 007 199 254 740 993 x 5 = 45 035 996 273 704 965;
    // / 10 000 = 4 503 599 627 370.4965 -> 4 503 599 627 370.
    expect(lateFeeCents(9_007_199_254_740_993n, 1)).toBe(4_503_599_627_370n);
  });

  it('refuses a negative amount or a part day', () => {
    expect(() => lateFeeCents(-1, 1)).toThrow(RangeError);
    expect(() => lateFeeCents(100, 1.5)).toThrow(RangeError);
    expect(() => lateFeeCents(100, -1)).toThrow(RangeError);
  });

  it('puts days and amount together for a due date', () => {
    // Due 10 Jan, unpaid on 9 Feb: 30 days; 100 000 sen -> 1 500 sen fee, 101 500 owed.
    expect(lateFeeOn(100_000, '2026-01-10', '2026-02-09')).toEqual({
      daysOverdue: 30,
      lateFeeCents: 1_500n,
      totalCents: 101_500n,
    });
    expect(lateFeeOn(100_000, '2026-01-10', '2026-01-10')).toEqual({
      daysOverdue: 0,
      lateFeeCents: 0n,
      totalCents: 100_000n,
    });
  });
});
