import { describe, expect, it } from 'vitest';
import { instantFormatter } from './report-time';

/*
 * The cached-offset formatter against Intl itself, cell by cell, in zones with daylight saving,
 * half- and quarter-hour offsets and a half-hour daylight shift (Lord Howe), around every change.
 */

const ZONES = [
  'UTC',
  'Asia/Shanghai',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
];

function intl(timeZone: string) {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (ms: number) => format.format(new Date(ms));
}

describe('instantFormatter', () => {
  it.each(ZONES)('writes every instant of 2026 in %s as Intl does', (zone) => {
    const fast = instantFormatter(zone);
    const slow = intl(zone);
    const start = Date.UTC(2026, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    // Every 7 minutes and 13 seconds plus a few milliseconds: every quarter hour's bucket is
    // visited at shifting positions, daylight changes included.
    const wrong: string[] = [];
    for (let ms = start; ms < end; ms += 433_007) {
      if (fast(ms) !== slow(ms)) wrong.push(`${new Date(ms).toISOString()}: ${fast(ms)} != ${slow(ms)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('is exact on each second around a daylight change', () => {
    const fast = instantFormatter('America/New_York');
    const slow = intl('America/New_York');
    // 2026-03-08 07:00 UTC: 02:00 EST becomes 03:00 EDT.
    const change = Date.UTC(2026, 2, 8, 7);
    for (let ms = change - 120_000; ms < change + 120_000; ms += 1000) expect(fast(ms)).toBe(slow(ms));
    expect(fast(change - 1000)).toBe('2026-03-08 01:59:59');
    expect(fast(change)).toBe('2026-03-08 03:00:00');
  });
});
