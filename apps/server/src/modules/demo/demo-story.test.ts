import { describe, expect, it } from 'vitest';
import { DEMO_LIMITS } from './demo-alarms';
import { COMPRESSOR_FAULT_BEFORE_ANCHOR_MS, demoRecords } from './demo-story';
import { DEMO_UNITS } from './demo-units';

const MINUTE = 60_000;

describe('the demo story', () => {
  it("crosses the failing compressor's upper limit once and stays above it, whatever the anchor and step", () => {
    const index = DEMO_UNITS.findIndex((u) => u.incident === 'compressorFault');
    const unit = DEMO_UNITS[index]!;
    const limit = DEMO_LIMITS[unit.kind].max;
    const temperatures = unit.channels.filter((c) => c.type === 'temperature').map((c) => c.ch);
    const crossings: string[] = [];
    // Anchors a few minutes and seconds apart (the history's steps fall differently on each),
    // the seed's five-minute history and the live feed's minute.
    for (let i = 0; i < 60; i++) {
      const anchor = Date.UTC(2026, 10, 28, 4, 0) + i * (7 * MINUTE + 13_000);
      for (const step of [5 * MINUTE, MINUTE]) {
        const records = demoRecords(
          unit,
          index,
          anchor,
          anchor - COMPRESSOR_FAULT_BEFORE_ANCHOR_MS - 30 * MINUTE,
          anchor + 86_400_000,
          step,
        );
        for (const ch of temperatures) {
          const above = records.map((r) => r.channels.find((c) => c.ch === ch)!.v > limit);
          const changes = above.filter((a, k) => k > 0 && a !== above[k - 1]).length;
          if (changes !== 1 || above[0] || !above.at(-1))
            crossings.push(`anchor ${i}, step ${step / MINUTE} min, channel ${ch}: ${changes} changes`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });
});
