import { AlarmIdRequest } from '@coldchain/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Config } from '../../lib/config';
import { ok } from '../../lib/envelope';
import { idFromWire, idToWire } from '../../lib/ids';
import { requireCompany, requirePermission } from '../../plugins/auth';
import { getAlarmDetail } from '../alarms/alarms.service';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { visibleDevices } from '../org/access';
import { users } from '../users/users.table';
import { notificationDeliveries } from './delivery.table';
import { deliveryReceiptRoutes } from './delivery-receipts.routes';
import { type DeliveryStatus, statusLabels } from './delivery-status';

/** `+8613800138000` -> `+86138****8000`; `alice@example.com` -> `a***@example.com`. */
export function maskAddress(address: string | null): string {
  if (!address) return '';
  const at = address.indexOf('@');
  if (at > 0) return `${address[0]}***${address.slice(at)}`;
  if (address.length <= 8) return `${address.slice(0, 2)}****`;
  return `${address.slice(0, address.length - 8)}****${address.slice(-4)}`;
}

export interface AlarmNotificationView {
  id: string;
  userId: string;
  userName: string;
  channel: string;
  sequence: number;
  recipient: string;
  status: string;
  statusText: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}

/** The delivery status of every message of one alarm, for the alarm's detail. */
export async function listAlarmNotifications(
  db: Db,
  companyId: number,
  wireId: string,
  language: 'en' | 'cn',
): Promise<AlarmNotificationView[]> {
  const alarmId = idFromWire(wireId);
  if (!alarmId) throw new AppError('ALARM_NOT_FOUND');
  const [alarm] = await db
    .select({ id: alarmRecords.id })
    .from(alarmRecords)
    .where(and(eq(alarmRecords.companyId, companyId), eq(alarmRecords.id, alarmId)));
  if (!alarm) throw new AppError('ALARM_NOT_FOUND');
  const rows = await db
    .select({
      n: alarmNotifications,
      userName: users.name,
      recipient: notificationDeliveries.recipient,
    })
    .from(alarmNotifications)
    .innerJoin(users, eq(users.id, alarmNotifications.userId))
    .leftJoin(notificationDeliveries, eq(notificationDeliveries.notificationId, alarmNotifications.id))
    .where(and(eq(alarmNotifications.companyId, companyId), eq(alarmNotifications.alarmId, alarmId)))
    .orderBy(asc(alarmNotifications.sequence), asc(alarmNotifications.id));
  return rows.map(({ n, userName, recipient }) => ({
    id: idToWire(n.id),
    userId: idToWire(n.userId),
    userName,
    channel: n.channel,
    sequence: n.sequence,
    recipient: maskAddress(recipient),
    status: n.status,
    statusText: statusLabels[n.status as DeliveryStatus]?.[language] ?? n.status,
    attempts: n.attempts,
    lastError: n.lastError,
    createdAt: n.createdAt.getTime(),
    sentAt: n.sentAt?.getTime() ?? null,
  }));
}

export const deliveryRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  await app.register(deliveryReceiptRoutes, { config });
  app.post(
    '/api/alarm/alarmNotifications',
    { preHandler: requirePermission('alarm:view'), schema: { body: AlarmIdRequest } },
    async (request) => {
      const companyId = requireCompany(request.auth);
      // The alarm must be one the caller may see: its detail call applies the device scope.
      await getAlarmDetail(app.db, companyId, visibleDevices(request.auth), request.body.id);
      return ok(
        await listAlarmNotifications(
          app.db,
          companyId,
          request.body.id,
          request.language === 'cn' ? 'cn' : 'en',
        ),
      );
    },
  );
};
