import { type ColdUnitProfile, humidityAt, temperatureAt } from './curve';

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
}

export function recordAt(device: SimulatedDevice, ts: number): UpRecord {
  const channels = [{ ch: 1, v: temperatureAt(device.profile, device.seed, ts) }];
  if (device.channelCount >= 2) channels.push({ ch: 2, v: humidityAt(device.profile, device.seed, ts) });
  for (let ch = 3; ch <= device.channelCount; ch++) {
    channels.push({ ch, v: temperatureAt(device.profile, device.seed + ch, ts) });
  }
  return { ts, channels, battery: 100, power: 'mains', mode: 'normal' };
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
