import { type AlarmType, ResolveState } from '@coldchain/contract';
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { plannedOnce } from '../../db/planned-once';
import { groupBy } from '../../lib/group-by';
import { devices } from '../devices/devices.table';
import type { CommittedEvent } from '../ingest/ingest.service';
import type { OfflineTransition } from '../telemetry/offline-sweep';
import { alarmContent } from './alarm-content';
import { type EvaluationContext, stateKey } from './alarm-context';
import { initialState, inSlot } from './alarm-engine';
import { EVENT_TYPES, slotOf } from './alarm-rules';
import {
  type DeviceInfo,
  type ExcursionEnd,
  endExcursions,
  insertAlarms,
  type NewAlarm,
  type PendingPush,
  type SavedState,
  type SettingRow,
} from './alarm-writer';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/**
 * Device-level alarms: events the device reports (power off, low battery, call), and offline /
 * back online from the sweep. They have no value or delay; reminders and escalation follow them
 * like any alarm (alarm-follow-ups.ts).
 * Device-level engine state lives in `alarm_state` under sensor 0.
 */

async function loadDevices(tx: Tx, companyId: number, ids: number[]): Promise<Map<number, DeviceInfo>> {
  const rows = await tx
    .select({
      id: devices.id,
      companyId: devices.companyId,
      name: devices.name,
      serial: devices.serial,
      groupId: devices.groupId,
    })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), inArray(devices.id, ids)));
  return new Map(rows.map((d) => [d.id, d]));
}

/**
 * Conditions a device reports once when they begin: while an alarm of the type is open, a repeat
 * of the event is the same condition (a logger re-sending `powerOff` after a reboot), not a new
 * alarm. Power-off is open until `powerOn`; low battery, which nothing in protocol v1 reports
 * the end of, until someone resolves it. Incoming calls are separate events and never absorbed.
 */
const CONDITION_EVENTS: AlarmType[] = ['powerOff', 'lowBattery'];

/** Which events of one device must be judged in order: power off and on end each other. */
const familyOf = (event: string) => (event === 'powerOn' ? 'powerOff' : event);

/**
 * Judges device events committed together (a site's power cut reports hundreds at once), each
 * company's in one pass: its settings, devices and open alarms read once, every power-on's ends in
 * one statement and every new alarm in one (`insertAlarms`), instead of four or five statements
 * per event. A device with two events of one family in the batch (off then on, or off twice) has
 * its events judged one by one, in order, after the others, so the second sees what the first did.
 */
export async function evaluateEvents(
  tx: Tx,
  events: CommittedEvent[],
  pushes: PendingPush[],
  now: Date,
): Promise<void> {
  const familyKey = (e: CommittedEvent) => `${e.deviceId}:${familyOf(e.event)}`;
  for (const [companyId, list] of groupBy(events, (e) => e.companyId)) {
    const seen = new Set<string>();
    const inOrder = new Set<number>();
    for (const e of list) {
      if (seen.has(familyKey(e))) inOrder.add(e.deviceId);
      seen.add(familyKey(e));
    }
    await evaluateCompanyEvents(
      tx,
      companyId,
      list.filter((e) => !inOrder.has(e.deviceId)),
      pushes,
      now,
    );
    for (const e of list)
      if (inOrder.has(e.deviceId)) await evaluateCompanyEvents(tx, companyId, [e], pushes, now);
  }
}

/** One company's events, at most one per device and family (`evaluateEvents`). */
async function evaluateCompanyEvents(
  tx: Tx,
  companyId: number,
  events: CommittedEvent[],
  pushes: PendingPush[],
  now: Date,
): Promise<void> {
  const typeOf = (e: CommittedEvent) => (e.event === 'powerOn' ? 'powerOff' : EVENT_TYPES[e.event]);
  const judged = events.filter((e) => typeOf(e) !== undefined);
  if (judged.length === 0) return;
  const settings = await settingsOf(
    tx,
    companyId,
    [...new Set(judged.map((e) => e.deviceId))],
    [...new Set(judged.map((e) => typeOf(e)!))],
  );
  const settingsFor = (e: CommittedEvent) =>
    settings.filter((s) => s.deviceId === e.deviceId && s.alarmType === typeOf(e));

  // Power is back: the power-off alarms of the device end (normalized if nobody took them in hand).
  const ends = judged
    .filter((e) => e.event === 'powerOn')
    .flatMap((e) => settingsFor(e).map((s) => ({ settingId: s.id, sensorId: 0, ts: e.ts })));
  if (ends.length > 0) await endExcursions(tx, companyId, ends, ['powerOff']);

  const raised = judged
    .filter((e) => e.event !== 'powerOn')
    .flatMap((event) => settingsFor(event).map((setting) => ({ event, setting })));
  if (raised.length === 0) return;
  const devicesById = await loadDevices(tx, companyId, [...new Set(raised.map((r) => r.event.deviceId))]);
  const conditions = raised.filter((r) => CONDITION_EVENTS.includes(r.setting.alarmType as AlarmType));
  const absorbing =
    conditions.length > 0
      ? await settingsWithOpenAlarm(
          tx,
          companyId,
          conditions.map((r) => r.setting.id),
          [...new Set(conditions.map((r) => r.setting.alarmType as AlarmType))],
        )
      : new Set<number>();
  const alarms: NewAlarm[] = [];
  for (const { event, setting } of raised) {
    const device = devicesById.get(event.deviceId);
    if (!device || absorbing.has(setting.id) || !inSlot(slotOf(setting), event.ts)) continue;
    const alarmType = setting.alarmType as AlarmType;
    alarms.push({
      setting,
      device,
      sensor: null,
      alarmType,
      level: setting.level,
      ts: event.ts,
      excursionStart: event.ts,
      value: null,
      content: alarmContent(
        { deviceName: device.name, deviceSerial: device.serial, sensor: null },
        { alarmType },
      ),
      raisedAt: now,
    });
  }
  await insertAlarms(tx, alarms, pushes);
}

/** Settings that already hold an open alarm of their type: not ended, and not settled by a person. */
async function settingsWithOpenAlarm(
  tx: Tx,
  companyId: number,
  settingIds: number[],
  alarmTypes: AlarmType[],
): Promise<Set<number>> {
  const rows = await tx
    .select({ settingId: alarmRecords.settingId })
    .from(alarmRecords)
    .where(
      and(
        eq(alarmRecords.companyId, companyId),
        inArray(alarmRecords.settingId, settingIds),
        inArray(alarmRecords.alarmType, alarmTypes),
        isNull(alarmRecords.endTime),
        notInArray(alarmRecords.resolveState, [ResolveState.Resolved, ResolveState.Expired]),
      ),
    );
  return new Set(rows.map((r) => r.settingId!));
}

function settingsOf(
  tx: Tx,
  companyId: number,
  deviceIds: number[],
  alarmTypes: string[],
): Promise<SettingRow[]> {
  return tx
    .select()
    .from(alarmSettings)
    .where(
      and(
        eq(alarmSettings.companyId, companyId),
        inArray(alarmSettings.deviceId, deviceIds),
        inArray(alarmSettings.alarmType, alarmTypes),
        eq(alarmSettings.enabled, true),
      ),
    );
}

/**
 * Devices the sweep just marked offline: an `offline` alarm for each that has an offline setting,
 * stamped with when the device was due (`dueAt`), not when the sweep noticed; `now` (server time)
 * paces its reminders.
 */
export async function evaluateOffline(
  tx: Tx,
  companyId: number,
  transitions: OfflineTransition[],
  now: Date,
  pushes: PendingPush[],
): Promise<void> {
  const settings = await settingsOf(
    tx,
    companyId,
    transitions.map((t) => t.id),
    ['offline'],
  );
  if (settings.length === 0) return;
  const known = await loadDevices(
    tx,
    companyId,
    settings.map((s) => s.deviceId),
  );
  const dueAt = new Map(transitions.map((t) => [t.id, t.dueAt]));
  const raised: NewAlarm[] = [];
  for (const setting of settings) {
    const device = known.get(setting.deviceId);
    const at = dueAt.get(setting.deviceId) ?? now.getTime();
    if (!device || !inSlot(slotOf(setting), at)) continue;
    const subject = { deviceName: device.name, deviceSerial: device.serial, sensor: null };
    raised.push({
      setting,
      device,
      sensor: null,
      alarmType: 'offline',
      level: setting.level,
      ts: at,
      excursionStart: at,
      value: null,
      content: alarmContent(subject, { alarmType: 'offline' }),
      raisedAt: now,
    });
  }
  const ids = await insertAlarms(tx, raised, pushes);
  // The engine waits for the device's return (evaluateBackOnline) from the alarms written.
  const states = raised
    .filter((_, i) => ids[i] !== null)
    .map((a) => ({
      setting_id: a.setting.id,
      device_id: a.device.id,
      state: { ...initialState(), phase: 'alarm' as const, since: a.ts, lastTs: a.ts },
    }));
  if (states.length === 0) return;
  await tx.execute(
    plannedOnce(sql`
    insert into ${alarmState} (setting_id, sensor_id, company_id, device_id, state)
    select x.setting_id, 0, ${companyId}, x.device_id, x.state
    from json_to_recordset(${JSON.stringify(states)}::json) as x(setting_id bigint, device_id bigint, state jsonb)
    on conflict (setting_id, sensor_id) do update set state = excluded.state, updated_at = now()`),
  );
}

/**
 * Readings arrived from devices whose offline alarm is open: the alarm ends and an `online`
 * notice goes to the offline setting's notifiers. The notice is born normalized. Returns the
 * offline settings' reset states, for the caller to save with the rest of the evaluation.
 */
export async function evaluateBackOnline(
  tx: Tx,
  companyId: number,
  offlineSettings: SettingRow[],
  context: EvaluationContext,
  newestTs: Map<number, number>,
  pushes: PendingPush[],
  now: Date,
): Promise<SavedState[]> {
  const reset: SavedState[] = [];
  const ends: ExcursionEnd[] = [];
  const notices: NewAlarm[] = [];
  for (const setting of offlineSettings) {
    const saved = context.states.get(stateKey(setting.id, 0));
    if (saved?.state.phase !== 'alarm') continue;
    const device = context.devices.get(saved.deviceId);
    const ts = newestTs.get(saved.deviceId);
    if (!device || ts === undefined) continue;
    ends.push({ settingId: setting.id, sensorId: 0, ts });
    notices.push({
      setting,
      device,
      sensor: null,
      alarmType: 'online',
      level: setting.level,
      ts,
      excursionStart: saved.state.since ?? ts,
      value: null,
      content: alarmContent(
        { deviceName: device.name, deviceSerial: device.serial, sensor: null },
        { alarmType: 'online' },
      ),
      resolveState: ResolveState.Normalized,
      raisedAt: now,
    });
    reset.push({
      settingId: setting.id,
      sensorId: 0,
      deviceId: device.id,
      state: { ...initialState(), lastTs: ts },
    });
  }
  // Two statements for every device of the batch that came back, not two per device: a fleet
  // returning after a restart is thousands of them.
  await endExcursions(tx, companyId, ends, ['offline']);
  await insertAlarms(tx, notices, pushes);
  return reset;
}
