import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { endOpenAlarms } from '../alarms/alarm-end';
import { lockDevicesForAlarmChange, syncDeviceStates } from '../alarms/alarm-writer';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import type { Actor } from '../audit/audit.service';
import { sensors } from '../devices/devices.table';
import { type logisticsDeliveries, logisticsDeliveryDevices } from './deliveries.table';

type Delivery = typeof logisticsDeliveries.$inferSelect;

/**
 * A shipment's alarms go through the one alarm engine (modules/alarms): at departure each
 * travelling monitor gets an over-limit setting of its own on each temperature sensor (and each
 * humidity sensor when the order names a humidity range), notifying the dispatcher who sent it.
 * At arrival or cancel the settings' open alarms end with the reason `shipmentEnded` and the
 * settings are deleted, so the monitor's own settings are all that judge it afterwards.
 */
export async function startShipmentAlarms(tx: Tx, actor: Actor, delivery: Delivery): Promise<void> {
  const links = await tx
    .select()
    .from(logisticsDeliveryDevices)
    .where(eq(logisticsDeliveryDevices.deliveryId, delivery.id));
  const deviceIds = links.map((l) => l.deviceId);
  if (deviceIds.length === 0) return;
  const rows = await tx
    .select({ id: sensors.id, deviceId: sensors.deviceId, type: sensors.type })
    .from(sensors)
    .where(and(inArray(sensors.deviceId, deviceIds), eq(sensors.enabled, true)));
  const rangeOf = (type: string) =>
    type === 'temperature'
      ? { min: delivery.tempMin, max: delivery.tempMax }
      : type === 'humidity' && (delivery.humidityMin !== null || delivery.humidityMax !== null)
        ? { min: delivery.humidityMin, max: delivery.humidityMax }
        : null;
  for (const link of links) {
    const ids: number[] = [];
    for (const sensor of rows.filter((s) => s.deviceId === link.deviceId)) {
      const range = rangeOf(sensor.type);
      if (!range) continue;
      const [setting] = await tx
        .insert(alarmSettings)
        .values({
          companyId: delivery.companyId,
          carrier: 'sensor',
          targetId: sensor.id,
          deviceId: link.deviceId,
          sensorId: sensor.id,
          level: 1,
          alarmType: 'overLimit',
          min: range.min,
          max: range.max,
          repeat: 1,
          channels: ['email'],
          notifierIds: actor.userId ? [actor.userId] : [],
        })
        .returning({ id: alarmSettings.id });
      ids.push(setting!.id);
    }
    await tx
      .update(logisticsDeliveryDevices)
      .set({ alarmSettingIds: ids })
      .where(
        and(
          eq(logisticsDeliveryDevices.deliveryId, delivery.id),
          eq(logisticsDeliveryDevices.deviceId, link.deviceId),
        ),
      );
  }
}

/** Ends the shipment's open alarms (`shipmentEnded`) and deletes its settings. */
export async function endShipmentAlarms(tx: Tx, actor: Actor, deliveryId: number): Promise<number> {
  const links = await tx
    .select()
    .from(logisticsDeliveryDevices)
    .where(eq(logisticsDeliveryDevices.deliveryId, deliveryId));
  const ids = links.flatMap((l) => l.alarmSettingIds);
  if (ids.length === 0) return 0;
  await lockDevicesForAlarmChange(
    tx,
    actor.companyId,
    links.map((l) => l.deviceId),
  );
  const ended = await endOpenAlarms(tx, actor, inArray(alarmRecords.settingId, ids), 'shipmentEnded');
  await tx
    .delete(alarmSettings)
    .where(and(eq(alarmSettings.companyId, actor.companyId), inArray(alarmSettings.id, ids)));
  await syncDeviceStates(
    tx,
    actor.companyId,
    links.map((l) => l.deviceId),
  );
  await tx
    .update(logisticsDeliveryDevices)
    .set({ alarmSettingIds: [] })
    .where(eq(logisticsDeliveryDevices.deliveryId, deliveryId));
  return ended;
}
