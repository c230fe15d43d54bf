import { seededRandom } from './curve';

/**
 * Power cuts and network outages of a simulated logger, decided per hour from its seed so a run
 * is repeatable. During a power cut the compressor stops (the cabinet warms) and the logger runs
 * on battery; during a network outage it keeps measuring and buffers its records, sending them
 * as a back-fill when the connection returns.
 */
export interface OutagePlan {
  /** Chance per hour of a power cut, and its length. */
  powerCutPerHour: number;
  powerCutMinutes: number;
  /** Chance per hour of losing the network, and its length. */
  networkLossPerHour: number;
  networkLossMinutes: number;
}

export const TYPICAL_OUTAGES: OutagePlan = {
  powerCutPerHour: 0.02,
  powerCutMinutes: 25,
  networkLossPerHour: 0.04,
  networkLossMinutes: 15,
};

const HOUR = 3_600_000;
const MINUTE = 60_000;

function windowAt(seed: number, salt: number, ts: number, chancePerHour: number, minutes: number) {
  // Look at this hour and the one before: an outage that starts late in an hour runs into the next.
  for (const hour of [Math.floor(ts / HOUR), Math.floor(ts / HOUR) - 1]) {
    const random = seededRandom(seed * 104_729 + salt * 7_919 + hour);
    if (random() >= chancePerHour) continue;
    const start = hour * HOUR + random() * HOUR;
    const end = start + minutes * MINUTE;
    if (ts >= start && ts < end) return { start, end };
  }
  return null;
}

export function powerCutAt(plan: OutagePlan, seed: number, ts: number) {
  return windowAt(seed, 1, ts, plan.powerCutPerHour, plan.powerCutMinutes);
}

export function networkLossAt(plan: OutagePlan, seed: number, ts: number) {
  return windowAt(seed, 2, ts, plan.networkLossPerHour, plan.networkLossMinutes);
}

/** The warming of a cabinet without power: about 0.25 °C a minute at first, slowing down. */
export function powerCutRise(minutesWithoutPower: number): number {
  return 12 * (1 - Math.exp(-minutesWithoutPower / 45));
}
