/** Settings of push docking's worker (lib/config.ts, API.md "Configuration"). */
export interface PushOptions {
  /** `PUSH_ALLOW_HOSTS`: hosts or CIDRs that may be reached although loopback or private. */
  allowHosts: string;
  /** How often an idle worker looks for work queued by other instances. */
  pollMs: number;
  /** First retry delay; doubles per attempt up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** One POST's bound, connection to last byte. */
  timeoutMs: number;
  /** How long a claimed delivery is held before another instance may send it again. */
  leaseMs: number;
  /** An address whose deliveries fail this long without a success is stopped. */
  stopAfterMs: number;
  /**
   * While ingest is saturated, the worker rests this many times as long as each round took: 19
   * bounds it to a twentieth of the time, so a backlog never starves ingest. 0 in most tests.
   */
  pauseFactor: number;
}

/** Answers are read up to this many bytes (only the status matters). */
export const PUSH_MAX_RESPONSE_BYTES = 64 * 1024;
