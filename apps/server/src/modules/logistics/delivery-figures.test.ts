import { describe, expect, it } from 'vitest';
import { excursionsOf, gapsOf, shipmentSummary } from './delivery-figures';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
/** Five-minute readings of one logger, 2-8 °C allowed. */
const at = (minutes: number, value: number) => [T0 + minutes * MIN, value] as const;

describe('delivery summary figures', () => {
  const trip = {
    serial: 'TRUCK1',
    channel: 1,
    intervalMs: 5 * MIN,
    // 0-10 in range, 15 and 20 above (9.5, 11), 25 back, 30-60 silent (a gap), 65 below, 70 back.
    points: [at(0, 4), at(5, 5), at(10, 6), at(15, 9.5), at(20, 11), at(25, 7), at(65, 1), at(70, 3)],
  };
  const start = T0;
  const end = T0 + 75 * MIN;

  it('counts each run outside the range as one excursion with its farthest reading', () => {
    expect(excursionsOf(trip, 2, 8, end)).toEqual([
      { serial: 'TRUCK1', channel: 1, start: T0 + 15 * MIN, end: T0 + 25 * MIN, peak: 11 },
      { serial: 'TRUCK1', channel: 1, start: T0 + 65 * MIN, end: T0 + 70 * MIN, peak: 1 },
    ]);
  });

  it('finds silences longer than three recording intervals, the window edges included', () => {
    expect(gapsOf(trip, start, end)).toEqual([
      { serial: 'TRUCK1', channel: 1, start: T0 + 25 * MIN, end: T0 + 65 * MIN },
    ]);
    // A first reading 20 minutes after departure is a gap at the start.
    expect(gapsOf({ ...trip, points: [at(20, 5)] }, start, T0 + 25 * MIN)).toEqual([
      { serial: 'TRUCK1', channel: 1, start: T0, end: T0 + 20 * MIN },
    ]);
  });

  it('gives min, max, MKT and minutes out of range as computed by hand', () => {
    const summary = shipmentSummary([trip], 2, 8, start, end);
    expect(summary.min).toBe(1);
    expect(summary.max).toBe(11);
    // Out of range: 15->20 (5 min), 20->25 (5 min), 65->70 (5 min) = 15 minutes.
    expect(summary.minutesOutOfRange).toBe(15);
    expect(summary.excursions).toBe(2);
    expect(summary.gaps).toHaveLength(1);
    expect(summary.readings).toBe(8);
    // MKT by hand, ΔH/R = 83144 / 8.3144598 K: -ΔH/R / ln(mean(exp(-ΔH/(R·T)))) - 273.15.
    const hOverR = 83_144 / 8.3144598;
    const values = [4, 5, 6, 9.5, 11, 7, 1, 3];
    const mean = values.reduce((s, c) => s + Math.exp(-hOverR / (c + 273.15)), 0) / values.length;
    const mkt = hOverR / -Math.log(mean) - 273.15;
    expect(summary.mkt).toBeCloseTo(mkt, 2);
    expect(summary.mkt).toBeGreaterThan(6.3); // above the arithmetic mean 5.81: MKT weighs heat
  });

  it('takes the worst logger for time out of range and pools the readings of all', () => {
    const cool = {
      serial: 'BOX2',
      channel: 1,
      intervalMs: 5 * MIN,
      points: [at(0, 3), at(30, 3), at(60, 3)],
    };
    const summary = shipmentSummary([trip, cool], 2, 8, start, end);
    expect(summary.minutesOutOfRange).toBe(15);
    expect(summary.readings).toBe(11);
    // BOX2: 0->30 and 30->60 are gaps; 60->75 is exactly three intervals, not a gap.
    expect(summary.gaps.map((g) => g.serial)).toEqual(['BOX2', 'TRUCK1', 'BOX2']);
  });

  it('has no figures before any reading', () => {
    expect(shipmentSummary([], 2, 8, start, start)).toMatchObject({
      min: null,
      max: null,
      mkt: null,
      minutesOutOfRange: 0,
      excursions: 0,
    });
  });
});
