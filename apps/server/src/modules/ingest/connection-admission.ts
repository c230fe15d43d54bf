/** What admission reads of ingest: how long its oldest waiting message has waited. */
export interface IngestPressure {
  /** Milliseconds the oldest message not yet in a transaction has waited; 0 when none waits. */
  oldestWaitMs(): number;
  /** No transaction in flight and no message waiting. */
  isIdle(): boolean;
  /** Tells `listener` each time a batch has been written; returns the unsubscribe. */
  onBatchWritten(listener: () => void): () => void;
}

export interface AdmissionPacing {
  /** Devices admitted between two written batches: each may bring its whole buffer at once. */
  perBatch: number;
  /** No device is admitted while a message has waited longer than this for its transaction. */
  maxWaitMs: number;
  /** With ingest idle, the allowance comes back this often (a fleet connecting with nothing kept). */
  idleRefillMs: number;
}

export const DEFAULT_ADMISSION_PACING: AdmissionPacing = { perBatch: 100, maxWaitMs: 100, idleRefillMs: 25 };

/**
 * Paces the CONNACKs of the embedded broker to what ingest absorbs. After a restart the whole
 * fleet comes back at once, each device with the readings it kept meanwhile; admitted all at once,
 * 10 000 devices queued 20 s of writes, and every acknowledgement waited 3-5 s behind them. Held
 * here instead, a device waits for its CONNACK (MQTT lets the server take its time; loggers wait
 * tens of seconds) and, once admitted, is acknowledged within a batch or two. With ingest keeping
 * up, as in normal running, nobody waits.
 */
export class ConnectionAdmission {
  private allowance: number;
  private readonly waiting: (() => void)[] = [];
  private readonly unsubscribe: () => void;
  private readonly refill: NodeJS.Timeout;

  constructor(
    private readonly ingest: IngestPressure,
    private readonly pacing: AdmissionPacing = DEFAULT_ADMISSION_PACING,
  ) {
    this.allowance = pacing.perBatch;
    this.unsubscribe = ingest.onBatchWritten(() => this.release());
    // Admitted devices may send nothing (nothing kept, or not yet due): no batch follows them.
    this.refill = setInterval(() => {
      if (this.waiting.length > 0 && this.ingest.isIdle()) this.release();
    }, pacing.idleRefillMs);
    this.refill.unref();
  }

  /** Resolves when the device may be told it is connected. */
  admit(): Promise<void> {
    if (this.waiting.length === 0 && this.mayAdmit()) {
      this.allowance--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Devices waiting for their CONNACK (metrics, tests). */
  get queued(): number {
    return this.waiting.length;
  }

  close() {
    this.unsubscribe();
    clearInterval(this.refill);
    // Nobody is left hanging: the broker closes their connections anyway.
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private mayAdmit(): boolean {
    return this.allowance > 0 && this.ingest.oldestWaitMs() <= this.pacing.maxWaitMs;
  }

  private release() {
    this.allowance = this.pacing.perBatch;
    while (this.waiting.length > 0 && this.mayAdmit()) {
      this.allowance--;
      this.waiting.shift()!();
    }
  }
}
