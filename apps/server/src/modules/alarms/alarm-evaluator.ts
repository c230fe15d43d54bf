import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { BatchEvaluator, CommittedEvent, IngestService } from '../ingest/ingest.service';
import type { CommittedReading } from '../ingest/write-batch';
import type { LiveHub } from '../live/live-hub';
import type { OfflineTransition } from '../telemetry/offline-sweep';
import { loadEvaluationContext, stateKey } from './alarm-context';
import { evaluateBackOnline, evaluateEvent, evaluateOffline } from './alarm-device-events';
import { type Clock, systemClock } from './alarm-follow-ups';
import { VALUE_TYPES } from './alarm-rules';
import { evaluateSensor } from './alarm-sensor-evaluation';
import { AlarmSettingsIndex } from './alarm-settings-index';
import { type PendingPush, saveStates, usersWhoMaySeeDevice } from './alarm-writer';

/** Thrown inside a batch's transaction when judging it failed, so the batch can be written without it. */
class EvaluationFailed extends Error {
  constructor(readonly reason: unknown) {
    super('alarm evaluation failed');
  }
}

/**
 * Wires the engine to the platform: readings from ingest, device events, offline transitions
 * from the sweep. Readings are judged inside the transaction that writes them, so an alarm
 * commits with its reading (no window where a crash keeps the reading and loses its alarm) and
 * reaches the live sockets one commit after the device published it. All work runs one task at
 * a time, in arrival order, and live messages are pushed after commit. A failed task is logged;
 * the persisted state makes the next reading carry on from before it.
 */
export class AlarmEvaluator implements BatchEvaluator {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly settingsIndex: AlarmSettingsIndex;
  private readonly raisedListeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
    private readonly log: FastifyBaseLogger,
    // The server's time of judging: reminders are scheduled from it and late alarms measured by it.
    private readonly clock: Clock = systemClock,
  ) {
    this.settingsIndex = new AlarmSettingsIndex(db);
  }

  /** Subscribes to ingest; returns the function that unsubscribes. */
  attach(ingest: IngestService): () => void {
    ingest.useEvaluator(this);
    ingest.prioritise((deviceId) => this.settingsIndex.mayAlarm(deviceId));
    const stopEvents = ingest.onEvent((event) => this.onEvent(event));
    return () => {
      ingest.useEvaluator(null);
      stopEvents();
      this.settingsIndex.close();
    };
  }

  /**
   * Told after commit whenever alarms were raised, repeated or escalated (their outbox rows are
   * committed by then): delivery wakes on it. Returns the function that stops listening.
   */
  onRaised(listener: () => void): () => void {
    this.raisedListeners.add(listener);
    return () => this.raisedListeners.delete(listener);
  }

  /**
   * Ingest's batch transaction: `write` stores the readings, then they are judged in the same
   * transaction. Should judging fail, the readings matter more: the batch is written again on its
   * own, and judged in a transaction of its own.
   */
  writeAndEvaluate<T extends { committed: CommittedReading[] }>(write: (tx: Tx) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const pushes: PendingPush[] = [];
      try {
        const written = await this.db.transaction(async (tx) => {
          const result = await write(tx);
          await this.evaluateReadings(tx, result.committed, pushes).catch((reason: unknown) => {
            throw new EvaluationFailed(reason);
          });
          return result;
        });
        await this.deliver(pushes);
        return written;
      } catch (error) {
        if (!(error instanceof EvaluationFailed)) throw error;
        this.log.error(
          { err: error.reason },
          'alarm evaluation failed in the ingest transaction; judging apart',
        );
        const written = await this.db.transaction(write);
        await this.judgeApart(written.committed).catch((err: unknown) =>
          this.log.error({ err }, 'alarm evaluation failed again; the readings are stored unjudged'),
        );
        return written;
      }
    });
  }

  /** Judges committed readings in a transaction of their own (tests, and the fallback above). */
  onReadings(committed: CommittedReading[]): Promise<void> {
    return this.enqueue(() => this.judgeApart(committed));
  }

  onEvent(event: CommittedEvent): Promise<void> {
    return this.enqueue(async () => {
      const pushes: PendingPush[] = [];
      await this.db.transaction((tx) => evaluateEvent(tx, event, pushes, this.clock()));
      await this.deliver(pushes);
    });
  }

  /** The offline sweep's callback (server.ts). */
  onOffline(transitions: OfflineTransition[]): Promise<void> {
    return this.enqueue(async () => {
      const pushes: PendingPush[] = [];
      const now = this.clock();
      for (const [companyId, list] of groupBy(transitions, (t) => t.companyId)) {
        await this.db.transaction((tx) => evaluateOffline(tx, companyId, list, now, pushes));
      }
      await this.deliver(pushes);
    });
  }

  /** Resolves when everything queued so far is evaluated and pushed (tests, graceful shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.chain;
      await seen.catch(() => undefined);
    } while (seen !== this.chain);
  }

  private async judgeApart(committed: CommittedReading[]) {
    const pushes: PendingPush[] = [];
    await this.db.transaction((tx) => this.evaluateReadings(tx, committed, pushes));
    await this.deliver(pushes);
  }

  /** Judges readings in the caller's transaction, one company at a time. */
  private async evaluateReadings(tx: Tx, committed: CommittedReading[], pushes: PendingPush[]) {
    if (committed.length === 0) return;
    // Readings of devices without any enabled setting cannot alarm: drop them before any query.
    const alarming = new Set(
      await this.settingsIndex.withSettings(
        committed.map((r) => r.deviceId),
        tx,
      ),
    );
    if (alarming.size === 0) return;
    const readings = committed.filter((r) => alarming.has(r.deviceId));
    const now = this.clock();
    for (const [companyId, list] of groupBy(readings, (r) => r.companyId)) {
      await evaluateCompanyReadings(tx, companyId, list, pushes, now);
    }
  }

  /** Runs `work` after everything queued before it; its failure is the caller's. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.chain.catch(() => undefined).then(work);
    this.chain = result;
    return result;
  }

  /** Like `exclusive`, for work nobody waits on: a failure is logged. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    return this.exclusive(work).catch((err: unknown) => this.log.error({ err }, 'alarm evaluation failed'));
  }

  private async deliver(pushes: PendingPush[]) {
    if (pushes.length === 0) return;
    for (const push of pushes) {
      const userIds = push.userIds ?? (await usersWhoMaySeeDevice(this.db, push.companyId, push.deviceId));
      // Every instance's sockets: this one directly, the others through the relay (PostgreSQL).
      await this.hub.publish({ userIds, companyId: push.companyId, deviceId: push.deviceId }, push.message);
    }
    for (const listener of this.raisedListeners) listener();
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

async function evaluateCompanyReadings(
  tx: Tx,
  companyId: number,
  readings: CommittedReading[],
  pushes: PendingPush[],
  now: Date,
): Promise<void> {
  const deviceIds = [...new Set(readings.map((r) => r.deviceId))];
  const context = await loadEvaluationContext(tx, companyId, deviceIds);
  if (context.settings.length === 0) return;
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

  const valueSettings = context.settings.filter((s) => VALUE_TYPES.includes(s.alarmType as never));
  for (const setting of valueSettings) {
    const device = context.devices.get(setting.deviceId);
    if (!device) continue;
    const mine = readings.filter(
      (r) =>
        r.deviceId === setting.deviceId && (setting.sensorId === null || r.sensorId === setting.sensorId),
    );
    for (const [sensorId, list] of groupBy(mine, (r) => r.sensorId)) {
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
}
