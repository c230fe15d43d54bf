import type { Queryable } from '../../db/client';
import { serviceLapses } from './service-lapses.table';

/**
 * Called when a renewal is approved: if the device's expiry had already passed, its service was
 * lapsed from that expiry until this renewal, and the period is recorded so its readings stay
 * hidden once the device is running again. A renewal of a running device records nothing.
 */
export async function recordLapseAtRenewal(
  tx: Queryable,
  device: { id: number; companyId: number; expiredAt: Date },
  renewedAt: Date,
): Promise<void> {
  if (device.expiredAt.getTime() >= renewedAt.getTime()) return;
  await tx.insert(serviceLapses).values({
    deviceId: device.id,
    companyId: device.companyId,
    lapsedFrom: device.expiredAt,
    lapsedUntil: renewedAt,
  });
}
