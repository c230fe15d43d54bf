import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { hashToken } from '../../lib/tokens';
import { onDeviceChanged } from '../devices/devices.service';
import { devices, sensors } from '../devices/devices.table';

export interface KnownDevice {
  id: number;
  companyId: number;
  serial: string;
  keyHash: string;
  uploadIntervalS: number;
  /** channel number -> sensor id */
  sensorIds: Map<number, number>;
}

/** Another instance may have rotated a key: cached entries live this long at most. */
const TTL_MS = 30_000;

/**
 * The devices ingest needs on every message, cached by serial so the hot path does not query
 * them each time. Changes made through the devices service invalidate the entry at once.
 */
export class DeviceDirectory {
  private readonly cache = new Map<string, { device: KnownDevice | null; at: number }>();
  private readonly unsubscribe: () => void;

  constructor(private readonly db: Db) {
    this.unsubscribe = onDeviceChanged((serial) => this.cache.delete(serial));
  }

  async find(serial: string): Promise<KnownDevice | null> {
    const hit = this.cache.get(serial);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.device;
    const [device] = await this.db.select().from(devices).where(eq(devices.serial, serial)).limit(1);
    let known: KnownDevice | null = null;
    if (device && device.state !== 6) {
      const rows = await this.db
        .select({ id: sensors.id, channel: sensors.channel })
        .from(sensors)
        .where(eq(sensors.deviceId, device.id));
      known = {
        id: device.id,
        companyId: device.companyId,
        serial: device.serial,
        keyHash: device.keyHash,
        uploadIntervalS: device.uploadIntervalS,
        sensorIds: new Map(rows.map((r) => [r.channel, r.id])),
      };
    }
    this.cache.set(serial, { device: known, at: Date.now() });
    return known;
  }

  /** The device when `key` is its current key, else null (unknown, disposed or wrong key). */
  async authenticate(serial: string, key: string): Promise<KnownDevice | null> {
    const device = await this.find(serial);
    return device && device.keyHash === hashToken(key) ? device : null;
  }

  close() {
    this.unsubscribe();
    this.cache.clear();
  }
}
