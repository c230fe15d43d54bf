import { ALARM_CHANNEL_SERVICES } from '@coldchain/contract';
import { inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { devices } from '../devices/devices.table';

/**
 * Channels that reach people away from the console (spec section 8: "The current device version
 * has no remote alarm and needs an upgrade"). E-mail and the console's own notifications are not
 * remote alarms and are open to every tier (docs/decisions.md, "Remote alarm by version tier").
 */
export const REMOTE_ALARM_CHANNELS: ReadonlySet<string> = new Set(['sms', 'call', 'whatsapp', 'wechat']);

/** Version tiers sold without remote alarm. */
export const TIERS_WITHOUT_REMOTE_ALARM: ReadonlySet<string> = new Set(['basic']);

/** Refuses a rule with remote channels on any device whose tier has no remote alarm. */
export async function assertRemoteAlarmAllowed(
  db: Queryable,
  deviceIds: number[],
  channels: readonly string[],
) {
  if (deviceIds.length === 0 || !channels.some((c) => REMOTE_ALARM_CHANNELS.has(c))) return;
  const rows = await db
    .select({ serial: devices.serial, version: devices.version })
    .from(devices)
    .where(inArray(devices.id, deviceIds));
  assertTiersAllowRemoteAlarm(rows, channels);
}

/** `assertRemoteAlarmAllowed` for devices whose version the caller read already. */
export function assertTiersAllowRemoteAlarm(
  found: readonly { serial: string; version: string }[],
  channels: readonly string[],
): void {
  if (!channels.some((c) => REMOTE_ALARM_CHANNELS.has(c))) return;
  const basic = found.find((d) => TIERS_WITHOUT_REMOTE_ALARM.has(d.version));
  if (basic) throw new AppError('REMOTE_ALARM_UNAVAILABLE', { serial: basic.serial });
}

/**
 * Refuses a rule naming a channel whose remote alarm service the company in scope does not have
 * (issue 17 item 5), with the spec's words for every service that is off.
 */
export function assertChannelServices(serviceTags: ReadonlySet<string>, channels: readonly string[]): void {
  const services = ALARM_CHANNEL_SERVICES as Record<string, string>;
  if (channels.some((c) => services[c] !== undefined && !serviceTags.has(services[c]!)))
    throw new AppError('NO_PERMISSION');
}
