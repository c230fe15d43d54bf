import type { SaveAlarmSettingRequest } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idFromWire, idToWire } from '../../lib/ids';
import { saveAlarmSetting } from '../alarms/alarm-settings.service';
import { devices, sensors } from '../devices/devices.table';
import { users } from '../users/users.table';
import { DEMO_ACCOUNT } from './demo-seed';

/**
 * Limits of the demo's temperature channels: 2-8 °C for fridges (vaccines), at most -10 °C for
 * freezers. The delays are what such sites use so that a door opening or a defrost cycle is not
 * an alarm: in the simulated curves a fridge door lifts a reading above 8 °C for less than five
 * minutes and a defrost a freezer above -10 °C for less than ten. The warm fridge, always above
 * 8 °C, alarms; the others do not.
 */
const LIMITS = {
  fridge: { min: 2, max: 8, delaySeconds: 15 * 60 },
  freezer: { min: -35, max: -10, delaySeconds: 30 * 60 },
} as const;

/** What every demo setting shares: the administrator notified by e-mail, reminded three times. */
const COMMON = {
  level: 1,
  hysteresis: 0.5,
  repeat: 3,
  repeatIntervalSeconds: 30 * 60,
  escalateAfterSeconds: 0,
  channels: ['email'],
  timeSlot: 'allDay',
  periods: [],
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  timeZone: 'UTC',
  enabled: true,
} satisfies Partial<SaveAlarmSettingRequest>;

/** The demo administrator, who is notified of every demo alarm (wire id), or null before the seed. */
export async function demoNotifier(db: Db): Promise<string | null> {
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.account, DEMO_ACCOUNT));
  return admin ? idToWire(admin.id) : null;
}

/**
 * Alarm settings of one newly bound demo monitor (`deviceId` as addDevice returns it): over-limit
 * on each temperature channel and offline on the monitor, through the same service (checks,
 * audit) as the console's saves. Called before its history is ingested, so the engine judges
 * that history as it arrives.
 */
export async function seedDemoAlarmSettings(
  db: Db,
  companyId: number,
  deviceId: string,
  kind: keyof typeof LIMITS,
  notifierId: string,
): Promise<void> {
  const actor = { companyId, userId: null, ip: '' };
  const scope = eq(devices.companyId, companyId);
  const notifierIds = [notifierId];
  const thermometers = await db
    .select({ id: sensors.id })
    .from(sensors)
    .where(and(eq(sensors.deviceId, idFromWire(deviceId)!), eq(sensors.type, 'temperature')));
  for (const sensor of thermometers) {
    await saveAlarmSetting(db, actor, scope, {
      ...COMMON,
      ...LIMITS[kind],
      carrier: 'sensor',
      targetId: idToWire(sensor.id),
      alarmType: 'overLimit',
      notifierIds,
    });
  }
  await saveAlarmSetting(db, actor, scope, {
    ...COMMON,
    delaySeconds: 0,
    carrier: 'device',
    targetId: deviceId,
    alarmType: 'offline',
    notifierIds,
  });
}
