import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../db/client';
import { type JobRow, jobs } from './jobs.table';

/** Where the queue reads the time: the system clock, or one a test moves by hand. */
export type JobClock = () => Date;

/** Does one job. Throwing retries it with backoff until `maxAttempts`, then marks it failed. */
export type JobHandler = (job: JobRow, now: Date) => Promise<void>;

export interface EnqueueOptions {
  /** When the job falls due; now when absent. */
  runAt?: Date;
  /** Makes enqueueing idempotent: a second job with the same key is not inserted. */
  key?: string;
  maxAttempts?: number;
}

export interface JobQueueOptions {
  clock?: JobClock;
  /** How long a claimed job is held before another instance may take it over. */
  leaseMs?: number;
  /** First retry delay; doubles per attempt up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Names this instance in `lease_owner` (tests give two apps two names). */
  owner?: string;
}

/**
 * Inserts a job; returns its id, or null when `key` was already queued. Takes a transaction so a
 * job can be written with the change that calls for it.
 */
export async function enqueueJob(
  db: Queryable,
  kind: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<number | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind,
      payload,
      key: options.key ?? null,
      runAt: options.runAt ?? new Date(),
      maxAttempts: options.maxAttempts ?? 5,
    })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

/**
 * The one job mechanism of the server (docs/decisions.md, "Job queue"). Jobs live in the `jobs`
 * table, so they survive a restart; an instance claims a due job with `FOR UPDATE SKIP LOCKED`
 * and marks it `running` under a lease in the same statement's transaction, so each job runs once
 * across instances. While it runs the lease is renewed; if the instance dies the lease runs out
 * and another instance takes the job over (the attempt counts). A failure is retried with
 * exponential backoff. Handlers are registered per kind; an instance claims only kinds it knows.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly clock: JobClock;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  readonly owner: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: JobQueueOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.backoffMs = options.backoffMs ?? 30_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 3_600_000;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** The queue's time (tests move it): schedules are computed from it too. */
  now(): Date {
    return this.clock();
  }

  handle(kind: string, handler: JobHandler) {
    this.handlers.set(kind, handler);
  }

  /** Enqueues and wakes this instance's worker (others find the job at their next poll). */
  async enqueue(kind: string, payload: Record<string, unknown>, options: EnqueueOptions = {}) {
    const id = await enqueueJob(this.db, kind, payload, { runAt: this.clock(), ...options });
    this.wake();
    return id;
  }

  /** Polls every `everyMs` (run-server.ts); tests call `runDue`. */
  start(everyMs: number) {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), everyMs);
    this.timer.unref();
    this.wake();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.running) await this.running;
  }

  /** Runs every job due now, and any that fall due meanwhile, and waits for them. */
  async runDue(): Promise<void> {
    this.stopped = false;
    this.wake();
    while (this.running) await this.running;
  }

  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.log.error({ err }, 'job queue failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain() {
    while (!this.stopped) {
      const job = await this.claim();
      if (!job) return;
      await this.execute(job);
    }
  }

  /** Takes one due job (queued and due, or running with a lapsed lease) for this instance. */
  async claim(): Promise<JobRow | null> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return null;
    const now = this.clock();
    return this.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            inArray(jobs.kind, kinds),
            or(
              and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)),
              and(eq(jobs.status, 'running'), lt(jobs.leaseUntil, now)),
            ),
          ),
        )
        .orderBy(jobs.runAt, jobs.id)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const [claimed] = await tx
        .update(jobs)
        .set({
          status: 'running',
          attempts: sql`${jobs.attempts} + 1`,
          leaseOwner: this.owner,
          leaseUntil: new Date(now.getTime() + this.leaseMs),
        })
        .where(eq(jobs.id, due.id))
        .returning();
      return claimed ?? null;
    });
  }

  private held(job: JobRow) {
    return and(eq(jobs.id, job.id), eq(jobs.leaseOwner, this.owner), eq(jobs.status, 'running'));
  }

  private async execute(job: JobRow) {
    const handler = this.handlers.get(job.kind)!;
    // Renews the lease while the handler works, so a long report is not taken over mid-way.
    const renew = setInterval(
      () => {
        void this.db
          .update(jobs)
          .set({ leaseUntil: new Date(this.clock().getTime() + this.leaseMs) })
          .where(this.held(job))
          .catch((err: unknown) => this.log.warn({ err, job: job.id }, 'job lease renewal failed'));
      },
      Math.max(1_000, this.leaseMs / 3),
    );
    renew.unref();
    try {
      await handler(job, this.clock());
      await this.db
        .update(jobs)
        .set({
          status: 'done',
          finishedAt: this.clock(),
          leaseOwner: null,
          leaseUntil: null,
          lastError: null,
        })
        .where(this.held(job));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failed = job.attempts >= job.maxAttempts;
      const now = this.clock();
      this.log.warn({ err, job: job.id, kind: job.kind, attempt: job.attempts }, 'job failed');
      await this.db
        .update(jobs)
        .set(
          failed
            ? { status: 'failed', finishedAt: now, leaseOwner: null, leaseUntil: null, lastError: message }
            : {
                status: 'queued',
                runAt: new Date(now.getTime() + this.backoffFor(job.attempts)),
                leaseOwner: null,
                leaseUntil: null,
                lastError: message,
              },
        )
        .where(this.held(job));
    } finally {
      clearInterval(renew);
    }
  }

  /** Delay before attempt `attempts + 1`: 30 s, 1 min, 2 min, ... at most an hour. */
  backoffFor(attempts: number): number {
    return Math.min(this.maxBackoffMs, this.backoffMs * 2 ** Math.max(0, attempts - 1));
  }
}
