import { networkLossAt, powerCutAt } from './outages';
import { recordAt, type SimulatedDevice, type UpRecord } from './payload';

export interface Outbound {
  /** Records to send now: the live one, preceded by any buffered during a network loss. */
  records: UpRecord[];
  /** Events to send now (power changes). */
  events: { ts: number; event: 'powerOff' | 'powerOn' }[];
}

/**
 * One simulated logger over time: each tick measures, keeps records while the network is down,
 * and hands everything buffered to the transport once it is back, as a real logger back-fills.
 */
export class DeviceRunner {
  private buffered: UpRecord[] = [];
  private onBattery = false;

  constructor(readonly device: SimulatedDevice) {}

  tick(ts: number): Outbound | null {
    const record = recordAt(this.device, ts);
    const events: Outbound['events'] = [];
    const cut = this.device.outages ? powerCutAt(this.device.outages, this.device.seed, ts) !== null : false;
    if (cut !== this.onBattery) {
      events.push({ ts, event: cut ? 'powerOff' : 'powerOn' });
      this.onBattery = cut;
    }
    const offline = this.device.outages
      ? networkLossAt(this.device.outages, this.device.seed, ts) !== null
      : false;
    if (offline) {
      this.buffered.push(record);
      return null;
    }
    const records = [...this.buffered, record];
    this.buffered = [];
    return { records, events };
  }

  /** A send failed: keep the records for the next tick, so nothing measured is lost. */
  requeue(records: UpRecord[]) {
    this.buffered = [...records, ...this.buffered];
  }
}
