import type { DeliveryExcursion, DeliveryGap, DeliverySummary } from '@coldchain/contract';
import { timeOutOfRangeMs } from '../reports/report-figures';
import { meanKineticTemperature } from '../telemetry/mkt';

/**
 * The figures a receiver decides by, as pure functions so tests check them against hand-computed
 * values. Time out of range is the reports' own rule (reports/report-figures.ts): a reading holds
 * until the next one, the window's end, or two hours; MKT is telemetry/mkt.ts.
 */

/** One temperature sensor's readings within the trip's window. */
export interface SensorTrip {
  serial: string;
  channel: number;
  /** [epoch ms, °C] in time order, all within [start, end]. */
  points: ReadonlyArray<readonly [number, number]>;
  /** The logger's recording interval: a silence longer than GAP_INTERVALS of them is a gap. */
  intervalMs: number;
}

/** Missing this many recording intervals in a row is a gap in the record. */
export const GAP_INTERVALS = 3;

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Runs of consecutive readings outside [low, high]; a run lasts until the first reading back inside. */
export function excursionsOf(trip: SensorTrip, low: number, high: number, end: number): DeliveryExcursion[] {
  const out: DeliveryExcursion[] = [];
  let current: DeliveryExcursion | null = null;
  for (const [ts, value] of trip.points) {
    const outside = value < low || value > high;
    if (outside) {
      // The peak is the reading farthest outside, measured from the limit it crossed.
      const beyond = (v: number) => (v > high ? v - high : low - v);
      if (!current) current = { serial: trip.serial, channel: trip.channel, start: ts, end, peak: value };
      else if (beyond(value) > beyond(current.peak)) current.peak = value;
    } else if (current) {
      current.end = ts;
      out.push(current);
      current = null;
    }
  }
  if (current) out.push(current);
  return out;
}

/** Silences longer than GAP_INTERVALS recording intervals, the window's edges included. */
export function gapsOf(trip: SensorTrip, start: number, end: number): DeliveryGap[] {
  const limit = GAP_INTERVALS * trip.intervalMs;
  const stamps = [start, ...trip.points.map(([ts]) => ts), end];
  const out: DeliveryGap[] = [];
  for (let i = 1; i < stamps.length; i++) {
    if (stamps[i]! - stamps[i - 1]! > limit)
      out.push({ serial: trip.serial, channel: trip.channel, start: stamps[i - 1]!, end: stamps[i]! });
  }
  return out;
}

/**
 * The shipment's summary over every temperature sensor travelling with it: lowest, highest and
 * MKT of all readings, the longest time any one sensor spent out of range (the worst logger is
 * what the goods went through), the excursions and the gaps.
 */
export function shipmentSummary(
  trips: readonly SensorTrip[],
  low: number,
  high: number,
  start: number,
  end: number,
  activationEnergyKj?: number,
): DeliverySummary {
  const values = trips.flatMap((t) => t.points.map(([, v]) => v));
  const mkt = values.length > 0 ? meanKineticTemperature(values, activationEnergyKj) : null;
  const excursionList = trips.flatMap((t) => excursionsOf(t, low, high, end));
  const longestMs = Math.max(0, ...trips.map((t) => timeOutOfRangeMs(t.points, low, high, end)));
  return {
    min: values.length > 0 ? round2(Math.min(...values)) : null,
    max: values.length > 0 ? round2(Math.max(...values)) : null,
    mkt: mkt === null ? null : round2(mkt),
    minutesOutOfRange: Math.round(longestMs / 60_000),
    excursions: excursionList.length,
    excursionList: excursionList.sort((a, b) => a.start - b.start),
    gaps: trips.flatMap((t) => gapsOf(t, start, end)).sort((a, b) => a.start - b.start),
    readings: values.length,
  };
}
