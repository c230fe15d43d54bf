import { BatchSaveAlarmSettingRequest } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { batchSaveAlarmSetting } from '../alarms/alarm-settings.service';
import { devices } from '../devices/devices.table';
import type { DemoUnit } from './demo-units';

/**
 * Limits of the demo's temperature channels: 2-8 °C for fridges (vaccines), at most -10 °C for
 * freezers. The delays are what such sites use so that a door opening or a defrost cycle is not
 * an alarm; the story's well-run units stay inside these bands anyway (demo-story.ts).
 */
export const DEMO_LIMITS = {
  fridge: { min: 2, max: 8, delaySeconds: 15 * 60 },
  freezer: { min: -35, max: -10, delaySeconds: 30 * 60 },
} as const;

/** What every demo setting shares: reminded three times, e-mail to three people. */
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
} as const;

export interface NewDemoMonitor {
  unit: DemoUnit;
  /** Wire id, as addDevice returns it. */
  deviceId: string;
  /** Who its alarms reach: the administrator and the people of its department (user ids). */
  notifierIds: number[];
}

/**
 * Alarm settings of newly bound demo monitors, through the batch call the console's settings
 * dialog uses (its checks and audit entries): over-limit on each temperature channel and offline
 * on each monitor. Monitors that share a kind, a channel and the same people get one batch.
 * Called before their history is ingested, so the engine judges that history as it arrives;
 * once, when bound, so settings a demo user deletes stay deleted.
 */
export async function seedDemoAlarmSettings(db: Db, companyId: number, monitors: NewDemoMonitor[]) {
  const actor = { companyId, userId: null, ip: '' };
  const scope = eq(devices.companyId, companyId);
  const batches = new Map<string, { rule: Record<string, unknown>; deviceIds: string[] }>();
  const add = (key: string, rule: Record<string, unknown>, deviceId: string) => {
    const batch = batches.get(key) ?? { rule, deviceIds: [] };
    batch.deviceIds.push(deviceId);
    batches.set(key, batch);
  };
  for (const { unit, deviceId, notifierIds } of monitors) {
    const people = notifierIds.map(idToWire);
    const who = people.join(',');
    for (const channel of unit.channels) {
      if (channel.type !== 'temperature') continue;
      add(
        `overLimit/${unit.kind}/${channel.ch}/${who}`,
        {
          ...COMMON,
          ...DEMO_LIMITS[unit.kind],
          carrier: 'channel',
          channel: channel.ch,
          alarmType: 'overLimit',
          notifierIds: people,
        },
        deviceId,
      );
    }
    add(
      `offline/${who}`,
      { ...COMMON, delaySeconds: 0, carrier: 'device', alarmType: 'offline', notifierIds: people },
      deviceId,
    );
  }
  for (const { rule, deviceIds } of batches.values()) {
    // Parsed as the route parses the console's request: the same defaults and checks.
    await batchSaveAlarmSetting(db, actor, scope, BatchSaveAlarmSettingRequest.parse({ ...rule, deviceIds }));
  }
}
