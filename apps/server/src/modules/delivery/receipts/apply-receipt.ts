import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { alarmNotifications } from '../../alarms/alarms.table';
import { refundCredit } from '../credits.service';
import { notificationDeliveries } from '../delivery.table';
import { DeliveryStatus } from '../delivery-status';

/** A provider's final word on one message, named by the provider's id of it. */
export interface Receipt {
  providerId: string;
  delivered: boolean;
  /** The provider's error, shown on the notification list. */
  error: string | null;
}

/**
 * Turns a `sent` message into `delivered` or `failed` (with the provider's error). Only `sent`
 * moves: receipts arrive out of order and more than once, and `delivered` and `failed` are final.
 * A receipt that arrives before the worker has recorded `sent` (the provider answered the callback
 * faster than our own write) finds nothing and is dropped; the row stays `sent`. A message that
 * finally failed gets its credit back, as one that was never sent does. `notificationId`, when the
 * receipt's signed address names it, must match too.
 */
export async function applyReceipt(
  db: Db,
  receipt: Receipt,
  notificationId: number | null,
  now = new Date(),
): Promise<boolean> {
  const applied = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: alarmNotifications.id, companyId: alarmNotifications.companyId })
      .from(alarmNotifications)
      .innerJoin(notificationDeliveries, eq(notificationDeliveries.notificationId, alarmNotifications.id))
      .where(
        and(
          eq(notificationDeliveries.providerId, receipt.providerId),
          eq(alarmNotifications.status, DeliveryStatus.Sent),
          ...(notificationId !== null ? [eq(alarmNotifications.id, notificationId)] : []),
        ),
      )
      .for('update', { of: alarmNotifications })
      .limit(1);
    if (!row) return null;
    await tx
      .update(alarmNotifications)
      .set({
        status: receipt.delivered ? DeliveryStatus.Delivered : DeliveryStatus.Failed,
        lastError: receipt.error?.slice(0, 500) ?? null,
      })
      .where(eq(alarmNotifications.id, row.id));
    await tx
      .update(notificationDeliveries)
      .set({ receiptAt: now, updatedAt: now })
      .where(eq(notificationDeliveries.notificationId, row.id));
    return row;
  });
  if (applied && !receipt.delivered) await refundCredit(db, applied.companyId, applied.id);
  return applied !== null;
}
