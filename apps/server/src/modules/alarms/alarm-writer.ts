import type { AlarmType } from '@coldchain/contract';
import { ResolveState } from '@coldchain/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import type { LiveMessage } from '../live/live-hub';
import { alarmNotifications, alarmRecords, type alarmSettings } from './alarms.table';

/**
 * Writing alarms: the record, its outbox rows and the live message, all decided inside the
 * engine's transaction; the message is pushed by the caller after commit.
 */

export type SettingRow = typeof alarmSettings.$inferSelect;

export interface DeviceInfo {
  id: number;
  companyId: number;
  name: string;
  serial: string;
  groupId: number | null;
}

export interface SensorInfo {
  id: number;
  name: string;
  type: string;
  unit: string;
  rangeMin: number;
  rangeMax: number;
}

export interface PendingPush {
  companyId: number;
  deviceId: number;
  message: LiveMessage;
  /** Who receives it, when already worked out inside the transaction that raised it. */
  userIds?: number[];
}

export { usersWhoMaySeeDevice } from '../org/access';

/** The live channel's alarm message (API.md "Live channel"). Groups do not exist yet: groupName is ''. */
export function liveAlarmMessage(
  device: DeviceInfo,
  sensor: SensorInfo | null,
  alarmType: AlarmType,
  alarmTime: number,
  content: { cn: string; en: string },
  extra: { alarmId: number; level: number; count: number },
): LiveMessage {
  return {
    type: 'alarm',
    bindContent: {
      alarmTime,
      alarmType,
      groupName: '',
      deviceName: device.name,
      deviceSerial: device.serial,
      deviceId: idToWire(device.id),
      channelName: sensor?.name ?? '',
      objectName: device.name,
      alarmContent: content,
      alarmId: idToWire(extra.alarmId),
      level: extra.level,
      count: extra.count,
    },
  };
}

/** One outbox row per notifier x channel; notifiers who have since left the company are skipped. */
export async function queueNotifications(
  tx: Tx,
  setting: SettingRow,
  alarmId: number,
  sequence: number,
  level: number,
): Promise<number> {
  if (setting.notifierIds.length === 0 || setting.channels.length === 0) return 0;
  const members = await tx
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, setting.companyId),
        inArray(companyMembers.userId, setting.notifierIds),
      ),
    );
  const rows = members.flatMap((m) =>
    setting.channels.map((channel) => ({
      companyId: setting.companyId,
      alarmId,
      userId: m.userId,
      channel,
      sequence,
      level,
    })),
  );
  if (rows.length > 0) await tx.insert(alarmNotifications).values(rows);
  return rows.length;
}

export interface NewAlarm {
  setting: SettingRow;
  device: DeviceInfo;
  sensor: SensorInfo | null;
  alarmType: AlarmType;
  level: number;
  ts: number;
  excursionStart: number;
  value: number | null;
  content: { cn: string; en: string };
  /** Notices (online) are born normalized: nobody has to resolve them. */
  resolveState?: number;
}

/**
 * Inserts the record and its first notifications, unless this excursion already has one (same
 * setting, sensor, type and start): then nothing happens and null is returned.
 */
export async function insertAlarm(tx: Tx, alarm: NewAlarm, pushes: PendingPush[]): Promise<number | null> {
  const sensorKey = alarm.sensor?.id ?? 0;
  const [row] = await tx
    .insert(alarmRecords)
    .values({
      companyId: alarm.device.companyId,
      deviceId: alarm.device.id,
      sensorId: alarm.sensor?.id ?? null,
      settingId: alarm.setting.id,
      alarmType: alarm.alarmType,
      level: alarm.level,
      alarmTime: new Date(alarm.ts),
      excursionStart: new Date(alarm.excursionStart),
      dedupeKey: `${alarm.setting.id}:${sensorKey}:${alarm.alarmType}:${alarm.excursionStart}`,
      content: alarm.content,
      lastValue: alarm.value,
      resolveState: alarm.resolveState ?? ResolveState.Pending,
    })
    .onConflictDoNothing({ target: alarmRecords.dedupeKey })
    .returning({ id: alarmRecords.id });
  if (!row) return null;
  await queueNotifications(tx, alarm.setting, row.id, 1, alarm.level);
  pushes.push({
    companyId: alarm.device.companyId,
    deviceId: alarm.device.id,
    message: liveAlarmMessage(alarm.device, alarm.sensor, alarm.alarmType, alarm.ts, alarm.content, {
      alarmId: row.id,
      level: alarm.level,
      count: 1,
    }),
  });
  return row.id;
}

/**
 * Ends the open excursions of a setting on a sensor (0 = device level): the end time is set, and
 * an alarm nobody took in hand becomes "normalized"; one in hand keeps its state for its resolver.
 */
export async function endExcursions(
  tx: Tx,
  companyId: number,
  settingId: number,
  sensorId: number,
  ts: number,
  alarmTypes?: AlarmType[],
) {
  await tx
    .update(alarmRecords)
    .set({
      endTime: new Date(ts),
      resolveState: sql`case when ${alarmRecords.resolveState} = ${ResolveState.Pending} then ${ResolveState.Normalized} else ${alarmRecords.resolveState} end`,
    })
    .where(
      and(
        eq(alarmRecords.companyId, companyId),
        eq(alarmRecords.settingId, settingId),
        sensorId === 0 ? isNull(alarmRecords.sensorId) : eq(alarmRecords.sensorId, sensorId),
        isNull(alarmRecords.endTime),
        alarmTypes ? inArray(alarmRecords.alarmType, alarmTypes) : undefined,
      ),
    );
}

/**
 * Device state 2 while any of its alarms is active, back to 1 when none. Only states 1 and 2 are
 * the engine's: abnormal (3, set by ingest for values beyond the measuring range), offline,
 * service and disposed win over an alarm.
 */
export async function syncDeviceStates(tx: Tx, companyId: number, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  await tx
    .update(devices)
    .set({
      state: sql`case when exists (select 1 from alarm_state s where s.company_id = ${devices.companyId}
                 and s.device_id = ${devices.id} and s.active) then 2 else 1 end`,
    })
    .where(
      and(eq(devices.companyId, companyId), inArray(devices.id, deviceIds), inArray(devices.state, [1, 2])),
    );
}
