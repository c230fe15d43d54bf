import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { companyMembers } from '../companies/companies.table';
import { alarmSettings } from './alarms.table';

/**
 * The `abnormal` setting every new device starts with (spec section 5: "a value beyond the
 * monitor's range gives a device abnormal alarm"). It is carried by the device, so it covers
 * every channel, and names no limits, so each sensor is judged by its own measuring range, the
 * range of the device type (alarm-rules.ts `valueRuleOf`). The person who added the device hears
 * of it by e-mail; a device added by no person (inventory tools, tests) notifies nobody, but the
 * alarm is still recorded and shown. It is an ordinary setting: it can be edited, disabled or deleted.
 */
export async function addDefaultAbnormalSetting(
  tx: Tx,
  device: { companyId: number; deviceId: number },
  addedBy: number | null,
): Promise<void> {
  const member =
    addedBy === null
      ? []
      : await tx
          .select({ userId: companyMembers.userId })
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, device.companyId), eq(companyMembers.userId, addedBy)));
  const notifierIds = member.map((m) => m.userId);
  await tx.insert(alarmSettings).values({
    companyId: device.companyId,
    carrier: 'device',
    targetId: device.deviceId,
    deviceId: device.deviceId,
    sensorId: null,
    level: 1,
    alarmType: 'abnormal',
    repeat: 1,
    channels: notifierIds.length > 0 ? ['email'] : [],
    notifierIds,
  });
}
