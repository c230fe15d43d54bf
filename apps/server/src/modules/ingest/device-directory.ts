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

/** Far above the devices one server ingests for, far below what strains its memory. */
const MAX_CACHED_SERIALS = 100_000;
const MAX_SERIAL_LENGTH = 40;

function isPossibleSerial(serial: string): boolean {
  return serial.length > 0 && serial.length <= MAX_SERIAL_LENGTH && !serial.includes('\u0000');
}

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
    // No device has such a serial (addDevice takes 1-40 characters); PostgreSQL text cannot even
    // hold a NUL, so the query would fail (found by the device fuzz, issue 13). Nothing is cached
    // for it either, so made-up serials cannot fill the cache.
    if (!isPossibleSerial(serial)) return null;
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
    // Unknown serials are cached too (a device retrying with a wrong serial costs no query), so
    // the cache is bounded: the oldest entries go first (a Map keeps insertion order).
    if (this.cache.size >= MAX_CACHED_SERIALS) this.cache.delete(this.cache.keys().next().value!);
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
