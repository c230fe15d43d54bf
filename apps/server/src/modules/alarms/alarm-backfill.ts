import { ResolveState } from '@coldchain/contract';
import { and, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import type { CommittedReading } from '../ingest/write-batch';
import { storedReadings } from '../telemetry/reading-sources';
import { alarmContent } from './alarm-content';
import { clearBand, type EngineAction, evaluate, initialState, type ValueRule } from './alarm-engine';
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
 * they show are kept; an excursion still open is reminded of like any other (alarm-follow-ups.ts).
 */
export function findBackfillExcursions(rule: ValueRule, readings: CommittedReading[]): BackfillExcursion[] {
  const found: BackfillExcursion[] = [];
  let state = initialState();
  for (const r of [...readings].sort((a, b) => a.ts - b.ts)) {
    const step = evaluate(rule, state, { ts: r.ts, value: r.value, mode: r.mode });
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
 * When an excursion the back-fill left open really ended: the first stored reading after the
 * back-filled ones, up to what the live machine has judged, inside the band the engine clears in.
 * The live machine never saw that excursion, so it would never end it. Values are stored as
 * 4-byte reals: compared as numerics, 7.7 stays 7.7 (not 7.699999809), as the engine sees it.
 */
async function storedClearing(
  tx: Tx,
  rule: ValueRule,
  sensorId: number,
  after: number,
  until: number,
): Promise<number | null> {
  if (until <= after) return null;
  const { low, high } = clearBand(rule);
  const [row] = await queryRows<{ ts: string | Date | null }>(
    tx,
    sql`select min(r.ts) as ts from (${storedReadings([sensorId], after, until)}) r
        where r.ts > ${new Date(after).toISOString()}
          and (${low}::numeric is null or r.value::numeric >= ${low}::numeric)
          and (${high}::numeric is null or r.value::numeric <= ${high}::numeric)`,
  );
  return row?.ts ? new Date(row.ts).getTime() : null;
}

/**
 * Records back-filled excursions that no existing alarm of the same setting, sensor and type
 * already covers (overlapping in time), so an excursion alarmed live is never alarmed again.
 * One that is already over, in the back-filled readings or in the stored ones after them up to
 * `judgedUpTo` (the live machine's newest reading), is recorded as normalized, with its end time.
 * Returns the raise of the one recorded still open, if any, for the live machine to take over.
 */
export async function recordBackfillExcursions(
  tx: Tx,
  rule: ValueRule,
  setting: SettingRow,
  device: DeviceInfo,
  sensor: SensorInfo,
  late: CommittedReading[],
  judgedUpTo: number,
  pushes: PendingPush[],
  now: Date,
): Promise<BackfillExcursion['raise'] | null> {
  let stillOpen: BackfillExcursion['raise'] | null = null;
  const excursions = findBackfillExcursions(rule, late);
  const lastLate = Math.max(...late.map((r) => r.ts));
  for (const excursion of excursions) {
    const { raise } = excursion;
    const endTs = excursion.endTs ?? (await storedClearing(tx, rule, sensor.id, lastLate, judgedUpTo));
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
        peak: raise.peak,
        raisedAt: now,
        late: true,
        // Already over: nobody is reminded of it, though it still needs a cause.
        resolveState: endTs === null ? undefined : ResolveState.Normalized,
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
    if (id !== null && endTs === null) stillOpen = raise;
  }
  return stillOpen;
}
