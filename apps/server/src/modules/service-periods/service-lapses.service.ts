import type { LapseRecovery, ServiceLapsesView } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { devices } from '../devices/devices.table';
import { assertDeviceAccess } from '../org/access';
import { lapsedPeriods, recoveredPeriods } from './hidden-ranges';
import { subtractRanges } from './time-ranges';

/**
 * `/api/device/serviceLapses`: a device's lapsed periods, each with the parts still hidden, so the
 * console can offer a lapsed period for data recovery. Only a device the caller may see.
 */
export async function listServiceLapses(
  db: Db,
  auth: Auth,
  wireDeviceId: string,
  now = new Date(),
): Promise<ServiceLapsesView> {
  const wanted = idFromWire(wireDeviceId);
  await assertDeviceAccess(db, auth, wanted);
  const deviceId = wanted as number;
  const [device] = await db
    .select({ expireTime: devices.expireTime })
    .from(devices)
    .where(eq(devices.id, deviceId));
  if (!device) throw new AppError('DEVICE_NOT_FOUND');
  const [lapses, recovered] = await Promise.all([
    lapsedPeriods(db, [deviceId], now),
    recoveredPeriods(db, [deviceId]),
  ]);
  const cut = recovered.get(deviceId) ?? [];
  return {
    deviceId: idToWire(deviceId),
    expireTime: device.expireTime.getTime(),
    lapses: (lapses.get(deviceId) ?? []).map((lapse) => {
      const hidden = subtractRanges([[lapse.fromMs, lapse.toMs]], cut);
      const hiddenMs = hidden.reduce((sum, [from, to]) => sum + (to - from), 0);
      const recovery: LapseRecovery =
        hidden.length === 0 ? 'full' : hiddenMs === lapse.toMs - lapse.fromMs ? 'none' : 'partial';
      return {
        startTime: lapse.fromMs,
        endTime: lapse.toMs,
        open: lapse.open,
        recovery,
        hidden: hidden.map(([startTime, endTime]) => ({ startTime, endTime })),
      };
    }),
  };
}
