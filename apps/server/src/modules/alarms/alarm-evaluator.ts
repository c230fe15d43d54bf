import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable, Tx } from '../../db/client';
import { devices, sensors } from '../devices/devices.table';
import type { CommittedEvent, IngestService } from '../ingest/ingest.service';
import type { CommittedReading } from '../ingest/write-batch';
import type { LiveHub } from '../live/live-hub';
import type { OfflineTransition } from '../telemetry/offline-sweep';
import { evaluateBackOnline, evaluateEvent, evaluateOffline } from './alarm-device-events';
import { isActive } from './alarm-engine';
import { VALUE_TYPES } from './alarm-rules';
import { evaluateSensor, type OpenAlarm } from './alarm-sensor-evaluation';
import { AlarmSettingsIndex } from './alarm-settings-index';
import { type PendingPush, type SettingRow, syncDeviceStates, usersWhoMaySeeDevice } from './alarm-writer';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/**
 * Wires the engine to the platform: committed readings and device events from ingest, offline
 * transitions from the sweep. Work runs one batch at a time (in arrival order, each in one
 * transaction that also saves the engine state), and live messages are pushed after commit.
 * A failed batch is logged; the persisted state makes the next reading carry on from before it.
 */
export class AlarmEvaluator {
  private chain: Promise<void> = Promise.resolve();
  private readonly settingsIndex: AlarmSettingsIndex;

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
    private readonly log: FastifyBaseLogger,
  ) {
    this.settingsIndex = new AlarmSettingsIndex(db);
  }

  /** Subscribes to ingest; returns the function that unsubscribes. */
  attach(ingest: IngestService): () => void {
    const stopReadings = ingest.onCommitted((readings) => this.onReadings(readings));
    ingest.prioritise((deviceId) => this.settingsIndex.mayAlarm(deviceId));
    const stopEvents = ingest.onEvent((event) => this.onEvent(event));
    return () => {
      stopReadings();
      stopEvents();
      this.settingsIndex.close();
    };
  }

  onReadings(committed: CommittedReading[]): Promise<void> {
    return this.enqueue(async () => {
      const pushes: PendingPush[] = [];
      // Readings of devices without any enabled setting cannot alarm: drop them before any query.
      const alarming = new Set(await this.settingsIndex.withSettings(committed.map((r) => r.deviceId)));
      const readings = committed.filter((r) => alarming.has(r.deviceId));
      for (const [companyId, list] of groupBy(readings, (r) => r.companyId)) {
        // One transaction for the rules, the evaluation and the recipients: on the embedded
        // database every separate statement waits behind a whole ingest batch.
        await this.db.transaction(async (tx) => {
          const settings = await settingsOfDevices(
            tx,
            companyId,
            list.map((r) => r.deviceId),
          );
          if (settings.length === 0) return;
          const from = pushes.length;
          await evaluateCompanyReadings(tx, companyId, settings, list, pushes);
          await addRecipients(tx, pushes.slice(from));
        });
      }
      return pushes;
    });
  }

  onEvent(event: CommittedEvent): Promise<void> {
    return this.enqueue(async () => {
      const pushes: PendingPush[] = [];
      await this.db.transaction((tx) => evaluateEvent(tx, event, pushes));
      return pushes;
    });
  }

  /** The offline sweep's callback (server.ts). */
  onOffline(transitions: OfflineTransition[], now = Date.now()): Promise<void> {
    return this.enqueue(async () => {
      const pushes: PendingPush[] = [];
      for (const [companyId, list] of groupBy(transitions, (t) => t.companyId)) {
        await this.db.transaction((tx) => evaluateOffline(tx, companyId, list, now, pushes));
      }
      return pushes;
    });
  }

  /** Resolves when everything queued so far is evaluated and pushed (tests, graceful shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.chain;
      await seen;
    } while (seen !== this.chain);
  }

  private enqueue(work: () => Promise<PendingPush[]>): Promise<void> {
    this.chain = this.chain
      .then(work)
      .then((pushes) => this.deliver(pushes))
      .catch((err: unknown) => this.log.error({ err }, 'alarm evaluation failed'));
    return this.chain;
  }

  private async deliver(pushes: PendingPush[]) {
    for (const push of pushes) {
      const userIds = push.userIds ?? (await usersWhoMaySeeDevice(this.db, push.companyId, push.deviceId));
      // Every instance's sockets: this one directly, the others through the relay (PostgreSQL).
      await this.hub.publish({ userIds, companyId: push.companyId, deviceId: push.deviceId }, push.message);
    }
  }
}

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Works out each push's recipients once per device, inside the caller's transaction. */
async function addRecipients(tx: Tx, pushes: PendingPush[]) {
  const byDevice = new Map<number, number[]>();
  for (const push of pushes) {
    let userIds = byDevice.get(push.deviceId);
    if (!userIds) {
      userIds = await usersWhoMaySeeDevice(tx, push.companyId, push.deviceId);
      byDevice.set(push.deviceId, userIds);
    }
    push.userIds = userIds;
  }
}

function settingsOfDevices(db: Queryable, companyId: number, deviceIds: number[]): Promise<SettingRow[]> {
  return db
    .select()
    .from(alarmSettings)
    .where(
      and(
        eq(alarmSettings.companyId, companyId),
        inArray(alarmSettings.deviceId, [...new Set(deviceIds)]),
        eq(alarmSettings.enabled, true),
      ),
    );
}

async function evaluateCompanyReadings(
  tx: Tx,
  companyId: number,
  settings: SettingRow[],
  readings: CommittedReading[],
  pushes: PendingPush[],
): Promise<void> {
  const deviceIds = [...new Set(readings.map((r) => r.deviceId))];
  const newestTs = new Map<number, number>();
  for (const r of readings) newestTs.set(r.deviceId, Math.max(newestTs.get(r.deviceId) ?? 0, r.ts));
  await evaluateBackOnline(
    tx,
    companyId,
    settings.filter((s) => s.alarmType === 'offline'),
    newestTs,
    pushes,
  );

  const valueSettings = settings.filter((s) => VALUE_TYPES.includes(s.alarmType as never));
  if (valueSettings.length === 0) return;
  const settingIds = valueSettings.map((s) => s.id);
  const [deviceRows, sensorRows, stateRows, openRows] = await Promise.all([
    tx
      .select({
        id: devices.id,
        companyId: devices.companyId,
        name: devices.name,
        serial: devices.serial,
        groupId: devices.groupId,
      })
      .from(devices)
      .where(and(eq(devices.companyId, companyId), inArray(devices.id, deviceIds))),
    tx
      .select({
        id: sensors.id,
        name: sensors.name,
        type: sensors.type,
        unit: sensors.unit,
        rangeMin: sensors.rangeMin,
        rangeMax: sensors.rangeMax,
      })
      .from(sensors)
      .where(and(eq(sensors.companyId, companyId), inArray(sensors.deviceId, deviceIds))),
    tx
      .select()
      .from(alarmState)
      .where(and(eq(alarmState.companyId, companyId), inArray(alarmState.settingId, settingIds))),
    tx
      .select({
        id: alarmRecords.id,
        settingId: alarmRecords.settingId,
        sensorId: alarmRecords.sensorId,
        resolveState: alarmRecords.resolveState,
      })
      .from(alarmRecords)
      .where(
        and(
          eq(alarmRecords.companyId, companyId),
          inArray(alarmRecords.settingId, settingIds),
          isNull(alarmRecords.endTime),
        ),
      )
      .orderBy(alarmRecords.id),
  ]);
  const deviceById = new Map(deviceRows.map((d) => [d.id, d]));
  const sensorById = new Map(sensorRows.map((s) => [s.id, s]));
  const stateOf = new Map(stateRows.map((s) => [`${s.settingId}:${s.sensorId}`, s.state]));
  // The newest open record of a (setting, sensor) is the alarm that repeats and escalates.
  const openOf = new Map(openRows.map((r) => [`${r.settingId}:${r.sensorId}`, r as OpenAlarm]));

  for (const setting of valueSettings) {
    const device = deviceById.get(setting.deviceId);
    if (!device) continue;
    const mine = readings.filter(
      (r) =>
        r.deviceId === setting.deviceId && (setting.sensorId === null || r.sensorId === setting.sensorId),
    );
    for (const [sensorId, list] of groupBy(mine, (r) => r.sensorId)) {
      const sensor = sensorById.get(sensorId);
      if (!sensor) continue;
      const key = `${setting.id}:${sensorId}`;
      const state = await evaluateSensor(
        tx,
        setting,
        device,
        sensor,
        list,
        stateOf.get(key),
        openOf.get(key),
        pushes,
      );
      await tx
        .insert(alarmState)
        .values({
          settingId: setting.id,
          sensorId,
          companyId,
          deviceId: device.id,
          state,
          active: isActive(state),
        })
        .onConflictDoUpdate({
          target: [alarmState.settingId, alarmState.sensorId],
          set: { state, active: isActive(state), updatedAt: new Date() },
        });
    }
  }
  await syncDeviceStates(tx, companyId, deviceIds);
}
