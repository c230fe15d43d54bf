import type { DeviceView, EditSensorRequest } from '@coldchain/contract';
import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { endOpenAlarms } from '../alarms/alarm-end';
import { lockDevicesForAlarmChange, syncDeviceStates } from '../alarms/alarm-writer';
import { alarmRecords, alarmState } from '../alarms/alarms.table';
import { type Actor, recordAudit } from '../audit/audit.service';
import { alarmingSensorIds } from './channel-state';
import { findDevice, presentDevice } from './devices.service';
import { devices, sensors } from './devices.table';

const editableOf = (s: typeof sensors.$inferSelect) => ({
  name: s.name,
  remark: s.remark,
  enabled: s.enabled,
});

/**
 * Names a channel, gives it remarks and switches it on or off (spec sections 3-4). `scope` is the
 * devices the caller may change: a sensor of any other device is "not found", like a foreign one.
 * Switching off keeps storing the channel's readings; the alarm engine no longer judges them, so
 * the channel's open alarms end then (`channelDisabled`) instead of staying open for ever, and
 * the engine's state of the channel is dropped: switched on again, it is judged afresh.
 */
export async function editSensor(
  db: Db,
  actor: Actor,
  scope: SQL,
  input: EditSensorRequest,
): Promise<DeviceView> {
  const id = idFromWire(input.id);
  const [sensor] = id
    ? await db
        .select(getTableColumns(sensors))
        .from(sensors)
        .innerJoin(devices, eq(devices.id, sensors.deviceId))
        .where(and(scope, eq(sensors.companyId, actor.companyId), eq(sensors.id, id)))
    : [];
  if (!sensor) throw new AppError('SENSOR_NOT_FOUND');
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(sensors)
      .set({ name: input.name, remark: input.remark, enabled: input.enabled })
      .where(eq(sensors.id, sensor.id))
      .returning();
    await recordAudit(tx, actor, {
      action: 'sensor.edit',
      targetType: 'device',
      targetId: sensor.deviceId,
      before: { channel: sensor.channel, ...editableOf(sensor) },
      after: { channel: sensor.channel, ...editableOf(updated!) },
    });
    if (sensor.enabled && !input.enabled) {
      // After the sensor, as ingest takes them: the sensor (its latest value), then its device.
      await lockDevicesForAlarmChange(tx, actor.companyId, [sensor.deviceId]);
      await endOpenAlarms(tx, actor, eq(alarmRecords.sensorId, sensor.id), 'channelDisabled');
      await tx.delete(alarmState).where(eq(alarmState.sensorId, sensor.id));
      await syncDeviceStates(tx, actor.companyId, [sensor.deviceId]);
    }
  });
  const device = await findDevice(db, scope, idToWire(sensor.deviceId));
  const rows = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  const alarming = await alarmingSensorIds(db, [device.id]);
  return { ...presentDevice(device, rows, alarming), editable: true };
}
