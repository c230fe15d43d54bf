import type { Db } from '../../db/client';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';

let sequence = 0;

/**
 * An alarm of a device and one notification of it on `channel`, as the alarm engine writes them:
 * what a debit of the ledger pays for. Returns the ids the delivery's credit calls take.
 */
export async function buildNotification(
  db: Db,
  companyId: number,
  deviceId: number,
  userId: number,
  channel: string,
  alarmType = 'overLimit',
): Promise<{ alarmId: number; notificationId: number }> {
  const now = new Date();
  const [alarm] = await db
    .insert(alarmRecords)
    .values({
      companyId,
      deviceId,
      alarmType,
      level: 1,
      alarmTime: now,
      excursionStart: now,
      dedupeKey: `credits:${deviceId}:${++sequence}:${now.getTime()}`,
      content: { en: 'Too warm', cn: '温度过高' },
    })
    .returning({ id: alarmRecords.id });
  const [notification] = await db
    .insert(alarmNotifications)
    .values({ companyId, alarmId: alarm!.id, userId, channel, level: 1 })
    .returning({ id: alarmNotifications.id });
  return { alarmId: alarm!.id, notificationId: notification!.id };
}
