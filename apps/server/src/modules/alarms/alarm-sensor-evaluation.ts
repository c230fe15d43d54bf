import { ResolveState } from '@coldchain/contract';
import type { Tx } from '../../db/client';
import type { CommittedReading } from '../ingest/write-batch';
import { recordBackfillExcursions } from './alarm-backfill';
import { alarmContent } from './alarm-content';
import { adoptAlarm, type EngineState, evaluate, initialState } from './alarm-engine';
import { limitsFor, VALUE_TYPES, valueRuleOf } from './alarm-rules';
import {
  type DeviceInfo,
  endExcursions,
  insertAlarm,
  type PendingPush,
  recordLatest,
  type SensorInfo,
  type SettingRow,
} from './alarm-writer';

/** The newest open alarm of a (setting, sensor): the one that repeats and escalates. */
export interface OpenAlarm {
  id: number;
  resolveState: number;
}

/**
 * Runs one sensor's new readings of one setting through the engine and writes what it decides.
 * `now` is the server's time of judging: reminders are paced from it, and a reading the ingest
 * flagged as back-filled makes its alarm "found in data received late".
 */
export async function evaluateSensor(
  tx: Tx,
  setting: SettingRow,
  device: DeviceInfo,
  sensor: SensorInfo,
  readings: CommittedReading[],
  saved: EngineState | undefined,
  open: OpenAlarm | undefined,
  pushes: PendingPush[],
  now: Date,
): Promise<EngineState> {
  const rule = valueRuleOf(setting, sensor);
  const subject = { deviceName: device.name, deviceSerial: device.serial, sensor };
  let state = saved ?? initialState();
  let current = open;
  const sorted = [...readings].sort((a, b) => a.ts - b.ts);
  const seenUpTo = state.lastTs;
  // Readings older than what the machine has seen are back-fill: judged apart, never twice.
  const late = seenUpTo === null ? [] : sorted.filter((r) => r.ts <= seenUpTo);
  const live = seenUpTo === null ? sorted : sorted.filter((r) => r.ts > seenUpTo);
  // The newest reading of the open alarm that did not end it: written once, after the batch.
  let latest: number | null = null;

  for (const r of live) {
    const step = evaluate(rule, state, { ts: r.ts, value: r.value, mode: r.mode });
    state = step.state;
    latest = state.phase === 'alarm' ? r.value : null;
    for (const action of step.actions) {
      if (action.kind === 'raise') {
        const content = alarmContent(subject, {
          alarmType: action.alarmType,
          value: action.value,
          ...limitsFor(rule, action.alarmType),
        });
        const id = await insertAlarm(
          tx,
          {
            setting,
            device,
            sensor,
            alarmType: action.alarmType,
            level: action.level,
            ts: action.ts,
            excursionStart: action.excursionStart,
            value: action.value,
            peak: action.peak,
            content,
            raisedAt: now,
            late: r.backfilled,
          },
          pushes,
        );
        if (id !== null) current = { id, resolveState: ResolveState.Pending };
        latest = null;
      } else if (action.kind === 'clear') {
        await endExcursions(
          tx,
          device.companyId,
          [{ settingId: setting.id, sensorId: sensor.id, ts: action.ts }],
          VALUE_TYPES,
        );
        current = undefined;
      }
    }
  }
  if (current && latest !== null && state.peak !== undefined && state.peak !== null) {
    await recordLatest(tx, device.companyId, current.id, latest, state.peak);
  }
  if (late.length > 0 && seenUpTo !== null) {
    // Up to the newest reading judged, this batch's live ones included (stored in this transaction).
    const judgedUpTo = state.lastTs ?? seenUpTo;
    const stillOpen = await recordBackfillExcursions(
      tx,
      rule,
      setting,
      device,
      sensor,
      late,
      judgedUpTo,
      pushes,
      now,
    );
    if (stillOpen && state.phase !== 'alarm') state = adoptAlarm(state, stillOpen);
  }
  return state;
}
