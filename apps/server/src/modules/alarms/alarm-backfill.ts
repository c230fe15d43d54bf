import { ResolveState } from '@coldchain/contract';
import { and, eq, gte, isNull, lte, or } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { CommittedReading } from '../ingest/write-batch';
import { alarmContent } from './alarm-content';
import { type EngineAction, evaluate, initialState, type ValueRule } from './alarm-engine';
import { limitsFor } from './alarm-rules';
import {
  type DeviceInfo,
  insertAlarm,
  type PendingPush,
  type SensorInfo,
  type SettingRow,
} from './alarm-writer';
import { alarmRecords } from './alarms.table';

export interface BackfillExcursion {
  raise: Extract<EngineAction, { kind: 'raise' }>;
  /** When the value came back, or null if it was still out at the last back-filled reading. */
  endTs: number | null;
}

/**
 * Readings older than what the live machine has already judged (they arrived out of order) run
 * through a scratch machine of their own, so the live state is left alone. Only the excursions
 * they show are kept; reminders and escalation belong to the live machine.
 */
export function findBackfillExcursions(rule: ValueRule, readings: CommittedReading[]): BackfillExcursion[] {
  const found: BackfillExcursion[] = [];
  let state = initialState();
  for (const r of [...readings].sort((a, b) => a.ts - b.ts)) {
    const step = evaluate(rule, state, { ts: r.ts, value: r.value, mode: r.mode, acknowledged: true });
    state = step.state;
    for (const action of step.actions) {
      if (action.kind === 'raise') found.push({ raise: action, endTs: null });
      if (action.kind === 'clear') {
        for (const excursion of found) excursion.endTs ??= action.ts;
      }
    }
  }
  return found;
}

/**
 * Records back-filled excursions that no existing alarm of the same setting, sensor and type
 * already covers (overlapping in time), so an excursion alarmed live is never alarmed again.
 * One that is already over is recorded as normalized, with its end time.
 */
export async function recordBackfillExcursions(
  tx: Tx,
  rule: ValueRule,
  setting: SettingRow,
  device: DeviceInfo,
  sensor: SensorInfo,
  excursions: BackfillExcursion[],
  pushes: PendingPush[],
): Promise<void> {
  for (const { raise, endTs } of excursions) {
    const start = new Date(raise.excursionStart);
    const [covered] = await tx
      .select({ id: alarmRecords.id })
      .from(alarmRecords)
      .where(
        and(
          eq(alarmRecords.companyId, device.companyId),
          eq(alarmRecords.settingId, setting.id),
          eq(alarmRecords.sensorId, sensor.id),
          eq(alarmRecords.alarmType, raise.alarmType),
          or(isNull(alarmRecords.endTime), gte(alarmRecords.endTime, start)),
          endTs === null ? undefined : lte(alarmRecords.excursionStart, new Date(endTs)),
        ),
      )
      .limit(1);
    if (covered) continue;
    const subject = { deviceName: device.name, deviceSerial: device.serial, sensor };
    const id = await insertAlarm(
      tx,
      {
        setting,
        device,
        sensor,
        alarmType: raise.alarmType,
        level: raise.level,
        ts: raise.ts,
        excursionStart: raise.excursionStart,
        value: raise.value,
        content: alarmContent(subject, {
          alarmType: raise.alarmType,
          value: raise.value,
          ...limitsFor(rule, raise.alarmType),
        }),
      },
      pushes,
    );
    if (id !== null && endTs !== null) {
      await tx
        .update(alarmRecords)
        .set({ endTime: new Date(endTs), resolveState: ResolveState.Normalized })
        .where(and(eq(alarmRecords.companyId, device.companyId), eq(alarmRecords.id, id)));
    }
  }
}
