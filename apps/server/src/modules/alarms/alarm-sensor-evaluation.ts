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
  notifyAgain,
  type PendingPush,
  type SensorInfo,
  type SettingRow,
} from './alarm-writer';

/** The newest open alarm of a (setting, sensor): the one that repeats and escalates. */
export interface OpenAlarm {
  id: number;
  resolveState: number;
}

/** Runs one sensor's new readings of one setting through the engine and writes what it decides. */
export async function evaluateSensor(
  tx: Tx,
  setting: SettingRow,
  device: DeviceInfo,
  sensor: SensorInfo,
  readings: CommittedReading[],
  saved: EngineState | undefined,
  open: OpenAlarm | undefined,
  pushes: PendingPush[],
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

  for (const r of live) {
    const acknowledged = current !== undefined && current.resolveState !== ResolveState.Pending;
    const step = evaluate(rule, state, { ts: r.ts, value: r.value, mode: r.mode, acknowledged });
    state = step.state;
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
            content,
          },
          pushes,
        );
        if (id !== null) current = { id, resolveState: ResolveState.Pending };
      } else if (action.kind === 'clear') {
        await endExcursions(tx, device.companyId, setting.id, sensor.id, action.ts, VALUE_TYPES);
        current = undefined;
      } else if (current) {
        // A repeat is a new notification round; an escalation notifies again at the higher level
        // within the current round (delivery may route levels to other people), so it does not
        // use up the max alarm count.
        await notifyAgain(
          tx,
          setting,
          device,
          sensor,
          current.id,
          action.kind === 'repeat' ? { count: action.sequence } : { level: action.level },
          action,
          pushes,
        );
      }
    }
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
    );
    if (stillOpen && state.phase !== 'alarm') state = adoptAlarm(state, stillOpen);
  }
  return state;
}
