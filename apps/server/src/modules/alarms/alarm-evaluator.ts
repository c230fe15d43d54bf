import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { groupBy } from '../../lib/group-by';
import { onDeviceChanged } from '../devices/devices.service';
import type { BatchEvaluator, CommittedEvent, IngestService } from '../ingest/ingest.service';
import type { CommittedReading } from '../ingest/write-batch';
import type { LiveHub } from '../live/live-hub';
import type { OfflineTransition } from '../telemetry/offline-sweep';
import { evaluateCompanyReadings } from './alarm-company-evaluation';
import { evaluateEvents, evaluateOffline } from './alarm-device-events';
import { type Clock, systemClock } from './alarm-follow-ups';
import { applyQuietPass, planQuiet, type QuietDevice } from './alarm-quiet-pass';
import { AlarmRuleCache } from './alarm-rule-cache';
import { type PendingPush, usersWhoMaySeeDevice } from './alarm-writer';

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
  /** Each device's rules, for judging in-range readings without their context (alarm-quiet-pass.ts). */
  readonly rules = new AlarmRuleCache();
  private readonly raisedListeners = new Set<() => void>();
  private readonly stopListening: (() => void)[];
  /** Told how long judging an ingest batch took, in seconds (modules/system/metrics.ts). */
  observeJudging: (seconds: number) => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
    private readonly log: FastifyBaseLogger,
    // The server's time of judging: reminders are scheduled from it and late alarms measured by it.
    private readonly clock: Clock = systemClock,
  ) {
    // Every use of the cache is checked against the database in the batch's transaction
    // (alarm-quiet-pass.ts): that check is what invalidates it, for changes made by any process.
    // A device edited here is dropped at once (it may have changed company or been disposed of).
    // A settings change is not a reason to drop every device: all of a large fleet would then be
    // evaluated in full at once, while the check finds the few devices the change concerns.
    this.stopListening = [onDeviceChanged((serial) => this.rules.forgetSerial(serial))];
  }

  /** Subscribes to ingest; returns the function that unsubscribes. */
  attach(ingest: IngestService): () => void {
    ingest.useEvaluator(this);
    ingest.prioritise((job) => this.rules.mayAct(job));
    const stopEvents = ingest.onEvent((event) => this.onEvent(event));
    return () => {
      ingest.useEvaluator(null);
      stopEvents();
      for (const stop of this.stopListening) stop();
      this.rules.clear();
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
          const judging = performance.now();
          await this.evaluateReadings(tx, result.committed, pushes).catch((reason: unknown) => {
            throw new EvaluationFailed(reason);
          });
          if (result.committed.length > 0) this.observeJudging((performance.now() - judging) / 1000);
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

  /**
   * Device events judged together: those committed while an earlier judgement or batch held the
   * queue go in one transaction (`eventsPerTransaction` at most), each part queued after what
   * ingest queued meanwhile. Resolves once the event is judged (or its failure logged).
   */
  onEvent(event: CommittedEvent): Promise<void> {
    return new Promise((judged) => {
      this.pendingEvents.push({ event, judged });
      if (!this.eventsQueued) this.queueEvents();
    });
  }

  /** Events one transaction judges: a site's power cut is hundreds at once. */
  eventsPerTransaction = 500;

  private pendingEvents: { event: CommittedEvent; judged: () => void }[] = [];
  private eventsQueued = false;

  private queueEvents() {
    this.eventsQueued = true;
    void this.enqueue(async () => {
      this.eventsQueued = false;
      const part = this.pendingEvents.splice(0, this.eventsPerTransaction);
      if (this.pendingEvents.length > 0) this.queueEvents();
      try {
        await this.judgeEvents(part.map((p) => p.event)).catch(async (error: unknown) => {
          if (part.length === 1) throw error;
          // One event must not cost the others their alarms: each is judged again on its own.
          this.log.error({ err: error }, 'device events failed together; judging each apart');
          for (const { event } of part)
            await this.judgeEvents([event]).catch((err: unknown) =>
              this.log.error({ err, event }, 'device event judgement failed'),
            );
        });
      } finally {
        for (const { judged } of part) judged();
      }
    });
  }

  private async judgeEvents(events: CommittedEvent[]) {
    const pushes: PendingPush[] = [];
    await this.db.transaction((tx) => evaluateEvents(tx, events, pushes, this.clock()));
    await this.deliver(pushes);
  }

  /**
   * Devices one transaction of the offline sweep's judgement takes. A site's network going down
   * takes thousands of devices offline at once: judged in one transaction, 10 000 held the
   * embedded database for 6-7 s (42-75 s before their alarms were written per batch), and every
   * other device's acknowledgement with it. Each part is queued after what ingest queued
   * meanwhile, so batches go between them.
   */
  offlinePerTransaction = 500;

  /** The offline sweep's callback (server.ts). */
  async onOffline(transitions: OfflineTransition[]): Promise<void> {
    this.offlineJudging++;
    try {
      await this.judgeOffline(transitions);
    } finally {
      this.offlineJudging--;
    }
  }

  /** Offline judgements under way: between two parts one is in no queue, and idle() must wait for it. */
  private offlineJudging = 0;

  private async judgeOffline(transitions: OfflineTransition[]) {
    for (const [companyId, list] of groupBy(transitions, (t) => t.companyId)) {
      for (let i = 0; i < list.length; i += this.offlinePerTransaction) {
        const part = list.slice(i, i + this.offlinePerTransaction);
        await this.enqueue(async () => {
          const pushes: PendingPush[] = [];
          await this.db.transaction((tx) => evaluateOffline(tx, companyId, part, this.clock(), pushes));
          // Their next readings may end an offline alarm: they go first (the quiet pass would see it too).
          for (const t of part) this.rules.markUnsettled(t.id);
          await this.deliver(pushes);
        });
      }
    }
  }

  /** Resolves when everything queued so far is evaluated and pushed (tests, graceful shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.chain;
      await seen.catch(() => undefined);
      if (this.offlineJudging > 0) await new Promise((r) => setImmediate(r));
    } while (seen !== this.chain || this.offlineJudging > 0);
  }

  /**
   * Judges in full, without the quiet pass: as the fallback it must not depend on what may have
   * failed in the batch's own transaction.
   */
  private async judgeApart(committed: CommittedReading[]) {
    const pushes: PendingPush[] = [];
    await this.db.transaction((tx) => this.evaluateReadings(tx, committed, pushes, false));
    await this.deliver(pushes);
  }

  /**
   * Judges readings in the caller's transaction. Devices whose readings are all in range by their
   * cached rules take the quiet pass (one statement for all of them); the others, and any the pass
   * finds changed, are evaluated in full, one company at a time.
   */
  private async evaluateReadings(
    tx: Tx,
    committed: CommittedReading[],
    pushes: PendingPush[],
    quietPass = true,
  ) {
    if (committed.length === 0) return;
    const byDevice = groupBy(committed, (r) => r.deviceId);
    const quiet: QuietDevice[] = [];
    const full: number[] = [];
    for (const [deviceId, readings] of byDevice) {
      const rules = this.rules.get(deviceId);
      const plan = quietPass && rules && !rules.unsettled ? planQuiet(rules, deviceId, readings) : null;
      if (plan) quiet.push(plan);
      else full.push(deviceId);
    }
    for (const deviceId of await applyQuietPass(tx, quiet)) full.push(deviceId);
    if (full.length === 0) return;
    const now = this.clock();
    const readings = full.flatMap((deviceId) => byDevice.get(deviceId) ?? []);
    for (const [companyId, list] of groupBy(readings, (r) => r.companyId)) {
      const { context, unsettled } = await evaluateCompanyReadings(tx, companyId, list, pushes, now);
      this.rules.remember(context, unsettled);
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
