import { type ColdUnitProfile, humidityAt, temperatureAt } from './curve';
import { type OutagePlan, powerCutAt, powerCutRise } from './outages';

/** One record of the device protocol v1 (API.md): `cc/v1/<serial>/up`. */
export interface UpRecord {
  ts: number;
  channels: { ch: number; v: number }[];
  battery: number;
  power: 'mains' | 'battery';
  mode: 'normal' | 'loading' | 'defrost' | 'service';
}

export interface SimulatedDevice {
  serial: string;
  key: string;
  profile: ColdUnitProfile;
  seed: number;
  /** Channel 1 is the air temperature; channel 2, when present, humidity. */
  channelCount: number;
  /** Power cuts to simulate; none when absent. */
  outages?: OutagePlan;
}

export function recordAt(device: SimulatedDevice, ts: number): UpRecord {
  const cut = device.outages ? powerCutAt(device.outages, device.seed, ts) : null;
  const rise = cut ? powerCutRise((ts - cut.start) / 60_000) : 0;
  const round = (v: number) => Math.round(v * 10) / 10;
  const channels = [{ ch: 1, v: round(temperatureAt(device.profile, device.seed, ts) + rise) }];
  if (device.channelCount >= 2) channels.push({ ch: 2, v: humidityAt(device.profile, device.seed, ts) });
  for (let ch = 3; ch <= device.channelCount; ch++) {
    channels.push({ ch, v: round(temperatureAt(device.profile, device.seed + ch, ts) + rise) });
  }
  // On battery the charge falls about 1 % every 3 minutes of the cut.
  const battery = cut ? Math.max(5, 100 - Math.floor((ts - cut.start) / 180_000)) : 100;
  return { ts, channels, battery, power: cut ? 'battery' : 'mains', mode: 'normal' };
}

/** The records a device that was offline from `from` to `to` sends when it comes back (back-fill). */
export function backfillRecords(
  device: SimulatedDevice,
  from: number,
  to: number,
  intervalMs: number,
): UpRecord[] {
  const records: UpRecord[] = [];
  for (let ts = from; ts < to; ts += intervalMs) records.push(recordAt(device, ts));
  return records;
}
