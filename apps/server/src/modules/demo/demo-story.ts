import type { UpRecord } from '@coldchain/contract';
import { FREEZER, FRIDGE } from '@coldchain/simulator/curve';
import { recordAt, type SimulatedDevice } from '@coldchain/simulator/payload';
import { DEMO_LIMITS } from './demo-alarms';
import type { DemoUnit } from './demo-units';

/**
 * The demo's story, told by the readings themselves and judged by the real alarm engine: every
 * state, alarm and count the console shows follows from these curves and the alarm settings
 * (demo-alarms.ts). All times are relative to the moment the demo fleet was first bound (its
 * "anchor": the devices' creation time), so a restart continues the same story instead of
 * starting another one.
 *
 * - The monitors without an incident are well run: door openings and defrost cycles move their
 *   readings, but never out of their alarm band (a reading beyond a limit that raises no alarm
 *   because of a delay reads as a contradiction on a chart).
 * - DEMO0003 rode out a power cut 30 hours before the anchor: it warmed above 8 °C for about an
 *   hour, the engine raised an over-limit alarm and ended it when the fridge was back in its
 *   band, and the Pharmacy's person in charge resolved it (demo-resolutions.ts).
 * - DEMO0012's compressor started failing 5 hours before the anchor: it has run warm since, so
 *   its over-limit alarm is open and the monitor is in alarm.
 * - DEMO0011 was unplugged 3 hours before the anchor: the offline sweep finds it silent.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const POWER_CUT_BEFORE_ANCHOR_MS = 30 * HOUR;
const POWER_CUT_MS = 50 * MINUTE;
/** After the power returns the compressor pulls the cabinet back down in about a quarter of an hour. */
const RECOVERY_MINUTES = 15;
export const COMPRESSOR_FAULT_BEFORE_ANCHOR_MS = 5 * HOUR;
/** A failing compressor lets the fridge drift to this far above its set point within the hour. */
const COMPRESSOR_FAULT_RISE = 5.5;
/** When the warming fridge crosses its upper limit, for good. */
const FAULT_CROSSES_LIMIT_MS = 40 * MINUTE;
export const UNPLUGGED_BEFORE_ANCHOR_MS = 3 * HOUR;

export function simulated(unit: DemoUnit, index: number): SimulatedDevice {
  return {
    serial: unit.serial,
    key: '',
    profile: unit.kind === 'freezer' ? FREEZER : FRIDGE,
    seed: 500 + index,
    channelCount: unit.channels.length,
    humidityChannels: unit.channels.filter((c) => c.type === 'humidity').map((c) => c.ch),
  };
}

/**
 * Keeps a well-run unit's reading inside its band: values past the knee are squeezed smoothly
 * towards a bound just inside the limit, so curves keep their shape and never cross.
 */
export function insideBand(value: number, kind: DemoUnit['kind']): number {
  const { min, max } = DEMO_LIMITS[kind];
  const margin = 0.4;
  const knee = 1.4;
  const squeeze = (excess: number) => (knee - margin) * Math.tanh(excess / (knee - margin));
  if (value > max - knee) return max - knee + squeeze(value - (max - knee));
  if (value < min + knee) return min + knee - squeeze(min + knee - value);
  return value;
}

/** How much warmer than usual the unit is at `ts` because of its incident (°C). */
function incidentRise(unit: DemoUnit, anchor: number, ts: number): number {
  if (unit.incident === 'powerCut') {
    const start = anchor - POWER_CUT_BEFORE_ANCHOR_MS;
    const end = start + POWER_CUT_MS;
    // About 0.25 °C a minute at first, slowing down, as a closed cabinet warms without power.
    const rise = (minutes: number) => 12 * (1 - Math.exp(-minutes / 45));
    if (ts < start) return 0;
    if (ts < end) return rise((ts - start) / MINUTE);
    return rise(POWER_CUT_MS / MINUTE) * Math.exp(-(ts - end) / MINUTE / RECOVERY_MINUTES);
  }
  if (unit.incident === 'compressorFault') {
    const since = ts - (anchor - COMPRESSOR_FAULT_BEFORE_ANCHOR_MS);
    return since <= 0 ? 0 : COMPRESSOR_FAULT_RISE * Math.min(1, since / HOUR);
  }
  return 0;
}

/**
 * A temperature reading warmed by the unit's incident. A failing compressor's fridge crosses its
 * upper limit once, `FAULT_CROSSES_LIMIT_MS` into the fault, and stays above it: left to the
 * usual wobble, the drifting reading could cross the limit back and forth (an alarm normalised
 * and raised again), depending on which five-minute steps the history happens to fall on.
 */
function warmedBy(value: number, unit: DemoUnit, anchor: number, ts: number): number {
  const warmed = value + incidentRise(unit, anchor, ts);
  if (unit.incident !== 'compressorFault') return warmed;
  const since = ts - (anchor - COMPRESSOR_FAULT_BEFORE_ANCHOR_MS);
  if (since <= 0) return warmed;
  const { max } = DEMO_LIMITS[unit.kind];
  return since < FAULT_CROSSES_LIMIT_MS ? Math.min(warmed, max - 0.3) : Math.max(warmed, max + 0.5);
}

/** Whether the unit ran on battery at `ts` (the power cut), and for how long. */
function onBatteryFor(unit: DemoUnit, anchor: number, ts: number): number | null {
  if (unit.incident !== 'powerCut') return null;
  const since = ts - (anchor - POWER_CUT_BEFORE_ANCHOR_MS);
  return since >= 0 && since < POWER_CUT_MS ? since : null;
}

/** The record the monitor sends at `ts` in the story. */
export function demoRecordAt(unit: DemoUnit, index: number, anchor: number, ts: number): UpRecord {
  const record = recordAt(simulated(unit, index), ts);
  const temperatures = new Set(unit.channels.filter((c) => c.type === 'temperature').map((c) => c.ch));
  const round = (v: number) => Math.round(v * 10) / 10;
  const channels = record.channels.map((c) =>
    temperatures.has(c.ch)
      ? { ch: c.ch, v: round(warmedBy(insideBand(c.v, unit.kind), unit, anchor, ts)) }
      : c,
  );
  const battery = onBatteryFor(unit, anchor, ts);
  return battery === null
    ? { ...record, channels }
    : { ...record, channels, power: 'battery', battery: 100 - Math.floor(battery / (3 * MINUTE)) };
}

/** The records of [from, to) every `stepMs`, aligned to the step. */
export function demoRecords(
  unit: DemoUnit,
  index: number,
  anchor: number,
  from: number,
  to: number,
  stepMs: number,
): UpRecord[] {
  const records: UpRecord[] = [];
  for (let ts = Math.ceil(from / stepMs) * stepMs; ts < to; ts += stepMs)
    records.push(demoRecordAt(unit, index, anchor, ts));
  return records;
}

/** When the unit stops reporting in the story (the unplugged one), else never. */
export function silentFrom(unit: DemoUnit, anchor: number): number {
  return unit.incident === 'unplugged' ? anchor - UNPLUGGED_BEFORE_ANCHOR_MS : Number.POSITIVE_INFINITY;
}

/** The device events a logger sends with its readings of [from, to): the power cut's. */
export function demoEvents(unit: DemoUnit, anchor: number, from: number, to: number) {
  if (unit.incident !== 'powerCut') return [];
  const start = anchor - POWER_CUT_BEFORE_ANCHOR_MS;
  return [
    { ts: start, event: 'powerOff' },
    { ts: start + POWER_CUT_MS, event: 'powerOn' },
  ].filter((e) => e.ts >= from && e.ts < to);
}
