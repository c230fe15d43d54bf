import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { approvedRecoveryPeriods } from '../billing/order-devices';
import { devices } from '../devices/devices.table';
import { serviceLapses } from './service-lapses.table';
import { mergeRanges, subtractRanges, type TimeRange } from './time-ranges';

/*
 * Which readings are hidden (docs/decisions.md, "Data recovery"): readings are always stored, but
 * those whose instant falls in a lapsed period of the device's service stay out of history, charts
 * and exports until an approved recovery order covers that period. This file is the one place
 * that answers it; history and export both ask `hiddenRanges`.
 */

export type { TimeRange } from './time-ranges';

export interface Lapse {
  fromMs: number;
  toMs: number;
  /** Still expired: the lapse runs up to `now`. */
  open: boolean;
}

/**
 * The lapsed periods of each device, oldest first: the recorded ones (closed by a late renewal)
 * and, for a device whose expiry has passed, the open one from its expiry up to `now`.
 */
export async function lapsedPeriods(
  db: Queryable,
  deviceIds: number[],
  now = new Date(),
): Promise<Map<number, Lapse[]>> {
  const byDevice = new Map<number, Lapse[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return byDevice;
  const nowMs = now.getTime();
  const recorded = await db.select().from(serviceLapses).where(inArray(serviceLapses.deviceId, deviceIds));
  for (const row of recorded) {
    byDevice.get(row.deviceId)?.push({
      fromMs: row.lapsedFrom.getTime(),
      toMs: row.lapsedUntil ? row.lapsedUntil.getTime() : nowMs,
      open: row.lapsedUntil === null,
    });
  }
  const expiries = await db
    .select({ id: devices.id, expireTime: devices.expireTime })
    .from(devices)
    .where(inArray(devices.id, deviceIds));
  for (const device of expiries) {
    const expiredAt = device.expireTime.getTime();
    if (expiredAt < nowMs) byDevice.get(device.id)?.push({ fromMs: expiredAt, toMs: nowMs, open: true });
  }
  for (const list of byDevice.values()) list.sort((a, b) => a.fromMs - b.fromMs);
  return byDevice;
}

/**
 * The periods recovered for each device: those of approved recovery orders naming it (sorted and
 * merged), as billing answers them. An order covers every device it lists, with the one period it
 * was priced for.
 */
export async function recoveredPeriods(
  db: Queryable,
  deviceIds: number[],
): Promise<Map<number, TimeRange[]>> {
  const byDevice = new Map<number, TimeRange[]>(deviceIds.map((id) => [id, []]));
  for (const row of await approvedRecoveryPeriods(db, deviceIds)) {
    byDevice.get(row.deviceId)?.push([row.periodStart.getTime(), row.periodEnd.getTime()]);
  }
  for (const [id, ranges] of byDevice) byDevice.set(id, mergeRanges(ranges));
  return byDevice;
}

/**
 * For each device asked about, the half-open ranges `[fromMs, toMs)` whose readings are hidden:
 * its lapsed periods minus its recovered periods, sorted and merged. Every id gets an entry (an
 * empty list when nothing is hidden); an unknown id gets an empty list too.
 */
export async function hiddenRanges(
  db: Queryable,
  deviceIds: number[],
  now = new Date(),
): Promise<Map<number, TimeRange[]>> {
  const ids = [...new Set(deviceIds)];
  const [lapses, recovered] = await Promise.all([lapsedPeriods(db, ids, now), recoveredPeriods(db, ids)]);
  const hidden = new Map<number, TimeRange[]>();
  for (const id of ids) {
    const lapsed = (lapses.get(id) ?? []).map((l): TimeRange => [l.fromMs, l.toMs]);
    hidden.set(id, subtractRanges(lapsed, recovered.get(id) ?? []));
  }
  return hidden;
}

/**
 * SQL that is true when the device whose id is `deviceId` (a column of the caller's query) has
 * had or has a lapse, so that per-reading callers (history) need `hiddenRanges` only then: most
 * devices never lapse, and this costs no extra round trip.
 */
export function mayHaveHiddenReadings(deviceId: SQL): SQL {
  return sql`(exists (select 1 from ${devices} d where d.id = ${deviceId} and d.expire_time < now())
              or exists (select 1 from ${serviceLapses} l where l.device_id = ${deviceId}))`;
}
