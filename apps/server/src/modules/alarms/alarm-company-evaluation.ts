import type { Tx } from '../../db/client';
import { groupBy } from '../../lib/group-by';
import type { CommittedReading } from '../ingest/write-batch';
import { type EvaluationContext, loadEvaluationContext, stateKey } from './alarm-context';
import { evaluateBackOnline } from './alarm-device-events';
import { VALUE_TYPES } from './alarm-rules';
import { evaluateSensor } from './alarm-sensor-evaluation';
import { type PendingPush, type SavedState, saveStates } from './alarm-writer';

/**
 * The full evaluation of one company's readings: the context read from the database, every
 * reading through the engine, the states saved. Returns the context (the rule cache keeps the
 * devices' rules from it) and the devices left with a state that is not normal.
 */
export async function evaluateCompanyReadings(
  tx: Tx,
  companyId: number,
  readings: CommittedReading[],
  pushes: PendingPush[],
  now: Date,
): Promise<{ context: EvaluationContext; unsettled: Set<number> }> {
  const deviceIds = [...new Set(readings.map((r) => r.deviceId))];
  const context = await loadEvaluationContext(tx, companyId, deviceIds);
  const unsettled = new Set<number>();
  if (context.settings.length === 0) return { context, unsettled };
  const newestTs = new Map<number, number>();
  for (const r of readings) newestTs.set(r.deviceId, Math.max(newestTs.get(r.deviceId) ?? 0, r.ts));
  // States of both kinds are saved together, in one statement at the end.
  const saved = await evaluateBackOnline(
    tx,
    companyId,
    context.settings.filter((s) => s.alarmType === 'offline'),
    context,
    newestTs,
    pushes,
    now,
  );

  // Each device's readings by sensor, so a setting meets only its own device's readings.
  const byDevice = new Map(
    [...groupBy(readings, (r) => r.deviceId)].map(([id, list]) => [id, groupBy(list, (r) => r.sensorId)]),
  );
  const valueSettings = context.settings.filter((s) => VALUE_TYPES.includes(s.alarmType as never));
  for (const setting of valueSettings) {
    const device = context.devices.get(setting.deviceId);
    if (!device) continue;
    for (const [sensorId, list] of byDevice.get(setting.deviceId) ?? []) {
      if (setting.sensorId !== null && sensorId !== setting.sensorId) continue;
      const sensor = context.sensors.get(sensorId);
      if (!sensor) continue;
      const key = stateKey(setting.id, sensorId);
      const state = await evaluateSensor(
        tx,
        setting,
        device,
        sensor,
        list,
        context.states.get(key)?.state,
        context.open.get(key),
        pushes,
        now,
      );
      saved.push({ settingId: setting.id, sensorId, deviceId: device.id, state });
    }
  }
  if (saved.length > 0) await saveStates(tx, companyId, saved, deviceIds);
  for (const device of unsettledDevices(context, saved)) unsettled.add(device);
  return { context, unsettled };
}

/** Devices with a state other than normal once `saved` is written over the context's states. */
function unsettledDevices(context: EvaluationContext, saved: SavedState[]): Set<number> {
  const states = new Map([...context.states].map(([key, s]) => [key, s]));
  for (const s of saved)
    states.set(stateKey(s.settingId, s.sensorId), { deviceId: s.deviceId, state: s.state });
  const devices = new Set<number>();
  for (const { deviceId, state } of states.values()) if (state.phase !== 'normal') devices.add(deviceId);
  return devices;
}
