import type { UpRecord } from '@coldchain/contract';
import type { Db, Tx } from '../../db/client';
import type { KnownDevice } from './device-directory';
import { DEFAULT_DEVICE_LIMITS, type DeviceLimits } from './device-limits';
import { DeviceRateLimiter } from './device-rate-limit';
import { type DeviceEvent, EventWriter } from './event-writer';
import { isRefusedData, isStorageUnavailable, UnstorableMessage } from './storage-failure';
import { type CommittedReading, type IngestJob, type IngestResult, writeIngestBatch } from './write-batch';

export type { DeviceEvent };
export interface CommittedEvent extends DeviceEvent {
  companyId: number;
  deviceId: number;
}
export type EventListener = (event: CommittedEvent) => void | Promise<void>;

/** Told about every batch after its transaction committed (and after the evaluator judged it). */
export type CommittedListener = (readings: CommittedReading[]) => void | Promise<void>;

/**
 * Judges each batch inside the transaction that writes it (the alarm engine): it runs the
 * transaction, so it can order it with its other work and fall back when judging fails.
 */
export interface BatchEvaluator {
  writeAndEvaluate<T extends { committed: CommittedReading[] }>(write: (tx: Tx) => Promise<T>): Promise<T>;
}

interface Pending extends IngestJob {
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
  /** When it arrived (ms). */
  at: number;
  /** Told apart when it arrived: it may raise or clear an alarm, so it is written first. */
  urgent: boolean;
}

/** After this many fruitless waits in a row, 63 batches go without waiting before the next try. */
const MAX_FRUITLESS_WAITS = 6;

/** busyShare's time constant: the last half second or so counts. */
const BUSY_DECAY_MS = 500;

/** Jobs written in one transaction at most; bounds a transaction's size under a flood. */
const MAX_JOBS_PER_BATCH = 2000;

/**
 * How messages are gathered into a transaction (docs/performance.md, "A fleet's batches"). Each
 * transaction costs a fixed part (its statements' round trips, planning-free execution, the quiet
 * pass, commit) besides its messages: a thousand devices sending every second would each get a
 * transaction of their own, and the database thread would be busy all the time. So a message
 * waits for others while other devices may still send: until `minBatch` messages are there, or
 * `lingerMs` after the oldest arrived, or until every device that sent in the last
 * `activeSenderMs` has a message waiting (those waiting for their answers send nothing more:
 * a device uploading its backlog one message at a time is not held up). Senders that take turns
 * (a gateway relaying its loggers one request at a time) gather nothing by waiting, so after such
 * a wait the next batches do not wait (gather). A message that may raise or clear an alarm never
 * waits, nor a lone device's message on a quiet server.
 */
export interface BatchPacing {
  lingerMs: number;
  minBatch: number;
  activeSenderMs: number;
}

export const DEFAULT_BATCH_PACING: BatchPacing = { lingerMs: 25, minBatch: 64, activeSenderMs: 1_000 };

/**
 * The one entry of every reading (MQTT and HTTP). Messages that arrive while a transaction is
 * being written wait and are written together in the next one, so throughput grows with load
 * while a lone message is written at once. A promise resolves only after its transaction has
 * committed: that is when a device may be acknowledged.
 */
export class IngestService {
  private queue: Pending[] = [];
  private writing = false;
  /** Batches committed whose messages are not answered yet. */
  private settling = 0;
  private readonly listeners = new Set<CommittedListener>();
  private readonly writtenListeners = new Set<() => void>();
  /** Told each committed transaction's messages and newly stored readings (modules/system/metrics.ts). */
  observeBatch: (messages: number, stored: number) => void = () => {};
  private readonly eventListeners = new Set<EventListener>();

  /** Messages per device and minute, shared by MQTT and HTTP. */
  readonly messageRate: DeviceRateLimiter;

  /** Each device that sent lately and when it last did, oldest first (BatchPacing). */
  private readonly recentSenders = new Map<number, number>();
  /** Messages received so far: a wait that saw no new one gathered nothing. */
  private arrivals = 0;
  /** Waits in a row that gathered nothing, and the batches still to go without waiting. */
  private fruitlessWaits = 0;
  private waitsToSkip = 0;
  /** Ends a wait for more messages at once (a full batch or an urgent message arrived). */
  private stopWaiting: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    readonly limits: DeviceLimits = DEFAULT_DEVICE_LIMITS,
    private readonly pacing: BatchPacing = DEFAULT_BATCH_PACING,
  ) {
    this.messageRate = new DeviceRateLimiter(limits.messagesPerMinute);
    this.events = new EventWriter(db, (device, event) => this.tellEvent(device, event));
  }

  ingest(device: KnownDevice, records: UpRecord[]): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      const at = Date.now();
      const job = { device, records, resolve, reject, at, urgent: false };
      job.urgent = this.isUrgent(job);
      this.queue.push(job);
      this.recentSenders.delete(device.id);
      this.recentSenders.set(device.id, at);
      this.arrivals++;
      if (this.stopWaiting && !this.shouldWait()) this.stopWaiting();
      if (!this.writing) void this.drain();
    });
  }

  /**
   * Marks devices whose readings go first (the alarm engine's: devices with alarm settings). When
   * such a message waits in the queue, it is written in a small transaction of its own ahead of
   * the rest, so under load an alarm is not held up behind a large batch of quiet devices.
   */
  prioritise(isUrgent: (job: IngestJob) => boolean) {
    this.isUrgent = isUrgent;
  }

  private isUrgent: (job: IngestJob) => boolean = () => false;
  private evaluator: BatchEvaluator | null = null;

  /** Who judges each batch in its transaction (null: nobody; the batch is only written). */
  useEvaluator(evaluator: BatchEvaluator | null) {
    this.evaluator = evaluator;
  }

  /** The next transaction's jobs: the urgent ones alone when there are others waiting too. */
  private nextBatch(): Pending[] {
    if (this.queue.length > 1) {
      const urgent = this.queue.filter((job) => job.urgent).slice(0, MAX_JOBS_PER_BATCH);
      if (urgent.length > 0 && urgent.length < this.queue.length) {
        const taken = new Set(urgent);
        this.queue = this.queue.filter((job) => !taken.has(job));
        return urgent;
      }
    }
    return this.queue.splice(0, MAX_JOBS_PER_BATCH);
  }

  private async drain() {
    this.writing = true;
    try {
      // Not even a microtask's wait unless it should: a lone message is written at once.
      if (this.shouldWait()) await this.gather();
      let inFlight = this.queue.length > 0 ? this.write(this.nextBatch()) : null;
      while (inFlight) {
        const answer = await inFlight;
        // The next transaction goes out before this one's devices are answered, so the database
        // works while this thread sends the acknowledgements (a macrotask later, once the next
        // batch's first statement is on its way). A batch that waits for more messages goes after.
        const waits = this.queue.length > 0 && this.shouldWait();
        inFlight = this.queue.length > 0 && !waits ? this.write(this.nextBatch()) : null;
        this.settling++;
        setImmediate(() => {
          this.settling--;
          answer();
        });
        if (waits) {
          await this.gather();
          inFlight = this.write(this.nextBatch());
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** Whether the next transaction should wait for more messages (BatchPacing). */
  private shouldWait(): boolean {
    const { lingerMs, minBatch } = this.pacing;
    if (lingerMs <= 0 || this.queue.length === 0 || this.queue.length >= minBatch) return false;
    if (this.queue.some((job) => job.urgent)) return false;
    return !this.everyRecentSenderWaiting();
  }

  /**
   * Whether every device that sent within `activeSenderMs` has a message in the queue: then no
   * message is coming that a wait could add (each of them waits for its answer, or has gone
   * quiet). A fleet of quiet devices has many recent senders and few waiting, so it waits.
   */
  private everyRecentSenderWaiting(): boolean {
    const since = Date.now() - this.pacing.activeSenderMs;
    for (const [deviceId, at] of this.recentSenders) {
      if (at >= since) break;
      this.recentSenders.delete(deviceId);
    }
    // Distinct devices waiting are at most the queue's length: most calls end here.
    if (this.queue.length < this.recentSenders.size) return false;
    const waiting = new Set(this.queue.map((job) => job.device.id));
    for (const deviceId of this.recentSenders.keys()) if (!waiting.has(deviceId)) return false;
    return true;
  }

  /**
   * Waits, when it should, until the queue makes a batch worth a transaction (BatchPacing). A
   * wait that gathered nothing says the senders take turns (a gateway relaying its loggers one
   * request at a time, each waiting for its answer): the next 1, 3, 7, ... up to 63 batches go
   * without waiting, and a wait that gathers something ends that.
   */
  private async gather(): Promise<void> {
    if (!this.shouldWait()) return;
    if (this.waitsToSkip > 0) {
      this.waitsToSkip--;
      return;
    }
    const arrivalsBefore = this.arrivals;
    // Only a wait that took time tells anything (the oldest message may have waited enough already).
    if (!(await this.waitForMore())) return;
    if (this.arrivals > arrivalsBefore) this.fruitlessWaits = 0;
    else {
      this.fruitlessWaits = Math.min(this.fruitlessWaits + 1, MAX_FRUITLESS_WAITS);
      this.waitsToSkip = 2 ** this.fruitlessWaits - 1;
    }
  }

  /** Waits until the batch should go; says whether it waited at all. */
  private async waitForMore(): Promise<boolean> {
    const deadline = this.queue[0]!.at + this.pacing.lingerMs;
    let stopped = false;
    let waited = false;
    while (!stopped && this.shouldWait()) {
      const now = Date.now();
      if (now >= deadline) return waited;
      waited = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, deadline - now);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.stopWaiting = () => {
          stopped = true;
          done();
        };
      });
      this.stopWaiting = null;
    }
    return waited;
  }

  /**
   * The share of the recent past (a time constant of BUSY_DECAY_MS) during which a transaction of
   * ingest was in flight: near 1 when batches go back to back (saturated), low for a fleet
   * trickling in. Other work on the same database (push docking's worker) rests while it is high.
   */
  busyShare(): number {
    const now = performance.now();
    this.decayBusy(now);
    const inFlight = this.writeStartedAt === null ? 0 : now - this.writeStartedAt;
    return Math.min(1, (this.decayedBusyMs + inFlight) / BUSY_DECAY_MS);
  }

  /** Finished writes' time, decaying exponentially: a steady share d of busy time tends to d x BUSY_DECAY_MS. */
  private decayedBusyMs = 0;
  private decayedAt = performance.now();
  private writeStartedAt: number | null = null;

  private decayBusy(now: number) {
    this.decayedBusyMs *= Math.exp((this.decayedAt - now) / BUSY_DECAY_MS);
    this.decayedAt = now;
  }

  /** Writes a batch; resolves with the function that answers its messages and tells listeners. */
  private async write(batch: Pending[]): Promise<() => void> {
    const answers: (() => void)[] = [];
    const started = performance.now();
    this.writeStartedAt = started;
    try {
      await this.writeIsolating(batch, answers);
    } finally {
      const now = performance.now();
      this.decayBusy(now);
      this.decayedBusyMs += now - started;
      this.writeStartedAt = null;
      for (const listener of this.writtenListeners) listener();
    }
    return () => {
      for (const answer of answers) answer();
    };
  }

  /**
   * One message must never fail another's: the messages of a batch come from many devices of
   * many companies. When a batch's transaction fails for something in its data (a value the
   * database refuses), each half is written again in a transaction of its own, down to the one
   * message at fault, which alone is refused: log2(n) extra transactions for one bad message.
   * Refused for its data, it is an UnstorableMessage, which the device is told about.
   * When the database itself is unavailable, splitting cannot help: every message is refused
   * at once (not acknowledged; devices resend).
   */
  private async writeIsolating(batch: Pending[], answers: (() => void)[]): Promise<void> {
    const now = Date.now();
    const maxAheadMs = this.limits.window.maxAheadMs;
    const write = (tx: Tx) => writeIngestBatch(tx, batch, { now, maxAheadMs });
    try {
      const { results, committed } = this.evaluator
        ? await this.evaluator.writeAndEvaluate(write)
        : await this.db.transaction(write);
      this.observeBatch(batch.length, committed.length);
      answers.push(() => {
        for (const [i, job] of batch.entries()) job.resolve(results[i]!);
        if (committed.length > 0) this.notify(committed);
      });
    } catch (error) {
      if (batch.length === 1 || isStorageUnavailable(error)) {
        const refusal = batch.length === 1 && isRefusedData(error) ? new UnstorableMessage(error) : error;
        answers.push(() => {
          for (const job of batch) job.reject(refusal);
        });
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await this.writeIsolating(batch.slice(0, half), answers);
      await this.writeIsolating(batch.slice(half), answers);
    }
  }

  /**
   * Stores a device event (power off/on, low battery, call, ...) once per (device, instant, event)
   * and tells event listeners after commit. Returns false for a repeat. Events that arrive
   * together are stored together (event-writer.ts).
   */
  recordEvent(device: KnownDevice, event: DeviceEvent): Promise<boolean> {
    return this.events.record(device, event);
  }

  private readonly events: EventWriter;

  /** Tells event listeners about an event stored for the first time, after its commit. */
  private tellEvent(device: KnownDevice, event: DeviceEvent) {
    const committed = { companyId: device.companyId, deviceId: device.id, ...event };
    for (const listener of this.eventListeners) Promise.resolve(listener(committed)).catch(() => undefined);
  }

  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Milliseconds the oldest message not yet in a transaction has waited; 0 when none waits. */
  oldestWaitMs(): number {
    return this.queue.length === 0 ? 0 : Math.max(0, Date.now() - this.queue[0]!.at);
  }

  /** No transaction in flight and no message waiting. */
  isIdle(): boolean {
    return !this.writing && this.queue.length === 0;
  }

  /** Tells `listener` after each batch's transaction (written or not); returns the unsubscribe. */
  onBatchWritten(listener: () => void): () => void {
    this.writtenListeners.add(listener);
    return () => this.writtenListeners.delete(listener);
  }

  /** Listens for committed readings; returns a function that stops listening. */
  onCommitted(listener: CommittedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A listener's failure must never reach the devices or the write loop. */
  private notify(readings: CommittedReading[]) {
    for (const listener of this.listeners) {
      try {
        Promise.resolve(listener(readings)).catch(() => undefined);
      } catch {
        // ignored: see above
      }
    }
  }

  /** Resolves when everything queued so far has been written (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.writing || this.settling > 0 || this.queue.length > 0)
      await new Promise((r) => setTimeout(r, 5));
  }
}
