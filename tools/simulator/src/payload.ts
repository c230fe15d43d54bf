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
  /** Channel 1 is the air temperature; channel 2, when present, humidity, unless `humidityChannels` says otherwise. */
  channelCount: number;
  /** The channels that measure humidity (default: channel 2); every other channel is a temperature. */
  humidityChannels?: number[];
  /** Power cuts to simulate; none when absent. */
  outages?: OutagePlan;
}

export function recordAt(device: SimulatedDevice, ts: number): UpRecord {
  const cut = device.outages ? powerCutAt(device.outages, device.seed, ts) : null;
  const rise = cut ? powerCutRise((ts - cut.start) / 60_000) : 0;
  const round = (v: number) => Math.round(v * 10) / 10;
  const humidity = device.humidityChannels ?? [2];
  const channels: UpRecord['channels'] = [];
  for (let ch = 1; ch <= device.channelCount; ch++) {
    if (humidity.includes(ch)) channels.push({ ch, v: humidityAt(device.profile, device.seed, ts) });
    else {
      // Channel 1 keeps the device's own seed (its readings stay what they were); the others vary it.
      const seed = ch === 1 ? device.seed : device.seed + ch;
      channels.push({ ch, v: round(temperatureAt(device.profile, seed, ts) + rise) });
    }
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
