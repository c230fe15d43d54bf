import { eq } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { alarmSettings } from './alarms.table';

const listeners = new Set<() => void>();

/** Tells in-process caches that alarm settings were created, changed or deleted. */
export function alarmSettingsChanged() {
  for (const listener of listeners) listener();
}

export function onAlarmSettingsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Which devices have at least one enabled alarm setting, kept in memory: most readings come from
 * devices without one, and under load a query per batch for them would queue in front of the
 * readings that do alarm. Changes made through this process apply at once; the time limit
 * bounds how long a change made by another server process (same database) goes unseen.
 */
export class AlarmSettingsIndex {
  private devices: Set<number> | null = null;
  private loadedAt = 0;
  /** Bumped by every invalidation, so a load that raced with a change is not kept. */
  private generation = 0;
  private readonly stopListening: () => void;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 5_000,
  ) {
    this.stopListening = onAlarmSettingsChanged(() => this.invalidate());
  }

  invalidate() {
    this.generation++;
    this.devices = null;
  }

  /**
   * Whether the device had an enabled setting when the index was last loaded, without waiting for
   * a load (false until the first one): a hint for ordering work, never for skipping it.
   */
  mayAlarm(deviceId: number): boolean {
    return this.devices?.has(deviceId) ?? false;
  }

  /**
   * The ids among `deviceIds` that have an enabled setting. Inside a transaction, pass it: on the
   * embedded database a query outside it would wait for it to end.
   */
  async withSettings(deviceIds: Iterable<number>, db: Queryable = this.db): Promise<number[]> {
    const devices = await this.current(db);
    return [...new Set(deviceIds)].filter((id) => devices.has(id));
  }

  close() {
    this.stopListening();
  }

  private async current(db: Queryable): Promise<Set<number>> {
    if (this.devices && Date.now() - this.loadedAt < this.maxAgeMs) return this.devices;
    const generation = this.generation;
    const rows = await db
      .selectDistinct({ deviceId: alarmSettings.deviceId })
      .from(alarmSettings)
      .where(eq(alarmSettings.enabled, true));
    const devices = new Set(rows.map((r) => r.deviceId));
    if (generation === this.generation) {
      this.devices = devices;
      this.loadedAt = Date.now();
    }
    return devices;
  }
}
