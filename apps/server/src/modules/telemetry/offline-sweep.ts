import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import type { SweepGate } from '../jobs/sweep-slots';

export interface OfflineTransition {
  id: number;
  companyId: number;
  serial: string;
  /**
   * When the device was due and did not report (last contact + upload interval x offline
   * judgement): the moment it went offline, whenever the sweep noticed it (epoch ms).
   */
  dueAt: number;
}

/**
 * Marks devices offline whose last contact is older than upload interval x offline judgement
 * (ARCHITECTURE.md "The hot path"). Returns the devices that just went offline, for the alarm
 * engine. Devices in service or disposed keep their state.
 */
export async function sweepOfflineDevices(db: Db, now = new Date()): Promise<OfflineTransition[]> {
  // node-postgres returns bigint columns of raw queries as strings; PGlite as numbers.
  const rows = await queryRows<{
    id: string | number;
    companyId: string | number;
    serial: string;
    dueAt: string | Date;
  }>(
    db,
    sql`update devices set state = 4
        where state in (1, 2, 3)
          and last_seen_at is not null
          and last_seen_at < ${now.toISOString()}::timestamptz - make_interval(secs => upload_interval_s * offline_judgement)
        returning id, company_id as "companyId", serial,
                  last_seen_at + make_interval(secs => upload_interval_s * offline_judgement) as "dueAt"`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: Number(r.companyId),
    serial: r.serial,
    dueAt: new Date(r.dueAt).getTime(),
  }));
}

/** Runs the sweep every `everyMs` until stopped. */
export function startOfflineSweep(
  db: Db,
  everyMs: number,
  onOffline: (devices: OfflineTransition[]) => void,
  gate?: SweepGate,
) {
  const timer = setInterval(async () => {
    // Once across instances (jobs/sweep-slots.ts): each transition is claimed by its update
    // anyway, but one instance sweeping spares the others the work.
    if (gate && !(await gate('offline', everyMs))) return;
    sweepOfflineDevices(db).then(
      (devices) => devices.length > 0 && onOffline(devices),
      () => undefined,
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
