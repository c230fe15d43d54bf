import { ChannelState, DeviceState } from '@coldchain/contract';
import { and, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { alarmRecords } from '../alarms/alarms.table';

interface ChannelFacts {
  enabled: boolean;
  value: number | null;
  rangeMin: number;
  rangeMax: number;
}

/**
 * A channel's state (spec section 4), worst first: switched off, the device in service or
 * offline (its channels say nothing then), an excursion still open on the channel, a value
 * outside the sensor's range (what the spec calls a device abnormal), else normal. A channel that
 * never reported counts as offline.
 */
export function channelState(deviceState: number, sensor: ChannelFacts, alarming: boolean): ChannelState {
  if (!sensor.enabled) return ChannelState.Disabled;
  if (deviceState === DeviceState.Service) return ChannelState.Service;
  const silent = deviceState === DeviceState.Offline || deviceState === DeviceState.Disposed;
  if (silent || sensor.value === null) return ChannelState.Offline;
  if (alarming) return ChannelState.Alarm;
  if (sensor.value < sensor.rangeMin || sensor.value > sensor.rangeMax) return ChannelState.Abnormal;
  return ChannelState.Normal;
}

/** Sensors of `deviceIds` with an excursion not yet ended (one statement for a whole page). */
export async function alarmingSensorIds(db: Queryable, deviceIds: number[]): Promise<Set<number>> {
  if (deviceIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ sensorId: alarmRecords.sensorId })
    .from(alarmRecords)
    .where(
      and(
        inArray(alarmRecords.deviceId, deviceIds),
        isNull(alarmRecords.endTime),
        isNotNull(alarmRecords.sensorId),
      ),
    );
  return new Set(rows.map((r) => r.sensorId!));
}
