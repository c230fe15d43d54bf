/**
 * A fridge or freezer's air temperature over time, as a logger sees it: a compressor cycling
 * around the set point, door openings that let warm air in, a defrost cycle every few hours
 * (freezers), and slow recovery after each disturbance. Deterministic for a seed, so tests and
 * benchmarks can rely on it.
 */
export interface ColdUnitProfile {
  kind: 'fridge' | 'freezer';
  setPoint: number;
  /** Half the swing of the compressor cycle, in °C. */
  cycleAmplitude: number;
  cycleMinutes: number;
  /** Mean door openings per hour. */
  doorOpeningsPerHour: number;
  /** Rise while a door stands open, in °C. */
  doorRise: number;
  defrostEveryHours: number | null;
  defrostRise: number;
}

export const FRIDGE: ColdUnitProfile = {
  kind: 'fridge',
  setPoint: 5,
  cycleAmplitude: 1.2,
  cycleMinutes: 40,
  doorOpeningsPerHour: 2,
  doorRise: 3,
  defrostEveryHours: null,
  defrostRise: 0,
};

export const FREEZER: ColdUnitProfile = {
  kind: 'freezer',
  setPoint: -20,
  cycleAmplitude: 1.5,
  cycleMinutes: 50,
  doorOpeningsPerHour: 0.5,
  doorRise: 6,
  defrostEveryHours: 8,
  defrostRise: 9,
};

/** A small, fast, seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Door openings are a property of each hour, so the same instant always gives the same value. */
function doorEffect(profile: ColdUnitProfile, seed: number, ts: number): number {
  const hour = Math.floor(ts / HOUR);
  let effect = 0;
  for (const h of [hour - 1, hour]) {
    const random = seededRandom(seed * 7919 + h);
    const openings = Math.round(random() * profile.doorOpeningsPerHour * 2);
    for (let i = 0; i < openings; i++) {
      const openedAt = h * HOUR + random() * HOUR;
      const since = (ts - openedAt) / MINUTE;
      if (since >= 0 && since < 30) effect += profile.doorRise * Math.exp(-since / 6) * Math.min(since, 1);
    }
  }
  return effect;
}

function defrostEffect(profile: ColdUnitProfile, ts: number): number {
  if (!profile.defrostEveryHours) return 0;
  const period = profile.defrostEveryHours * HOUR;
  const into = (ts % period) / MINUTE;
  if (into < 20) return profile.defrostRise * Math.sin((Math.PI * into) / 40);
  if (into < 60) return profile.defrostRise * Math.exp(-(into - 20) / 10);
  return 0;
}

/** The temperature at `ts` (epoch ms), to one decimal as loggers report it. */
export function temperatureAt(profile: ColdUnitProfile, seed: number, ts: number): number {
  const phase = ((ts / MINUTE) % profile.cycleMinutes) / profile.cycleMinutes + (seed % 100) / 100;
  const cycle = profile.cycleAmplitude * Math.sin(2 * Math.PI * phase);
  const noise = (seededRandom(seed ^ Math.floor(ts / 1000))() - 0.5) * 0.2;
  const value = profile.setPoint + cycle + doorEffect(profile, seed, ts) + defrostEffect(profile, ts) + noise;
  return Math.round(value * 10) / 10;
}

/** Relative humidity inside a fridge, loosely following the door openings. */
export function humidityAt(profile: ColdUnitProfile, seed: number, ts: number): number {
  const base = profile.kind === 'fridge' ? 55 : 35;
  const value = base + doorEffect(profile, seed, ts) * 4 + Math.sin(ts / (3 * HOUR)) * 3;
  return Math.round(Math.min(100, Math.max(0, value)) * 10) / 10;
}
