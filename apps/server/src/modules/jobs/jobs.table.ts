import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const JobStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JobStatuses)[number];

/**
 * The database job queue (modules/jobs/job-queue.ts, docs/decisions.md "Job queue"): one row per
 * piece of background work. A row is due when `queued` and `run_at` has come, or when `running`
 * and its lease has run out (the instance that took it died). `key` makes enqueueing idempotent:
 * two instances scheduling the same occurrence insert one row.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** Unique when set: `report.scheduled:<task>:<instant>` and the like. */
    key: text('key'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    /** The instance running the job, and until when it holds it. */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_key_idx').on(t.key),
    // The claim reads only unfinished rows, by time.
    index('jobs_due_idx').on(t.runAt).where(sql`${t.status} in ('queued', 'running')`),
  ],
);
export type JobRow = typeof jobs.$inferSelect;

/**
 * Which period ("slot") of each periodic sweep (offline devices, reminders, account
 * cancellation, reading storage upkeep) has been run, and by which instance. Every instance ticks,
 * and the first tick of a slot moves `slot` forward and runs the sweep; the others find the slot
 * taken (sweep-lease.ts). Slots are counted on the database's clock, so instances with skewed
 * clocks agree, and an instance that dies simply stops claiming: the others claim the next slots.
 */
export const sweepRuns = pgTable('sweep_runs', {
  name: text('name').primaryKey(),
  slot: bigint('slot', { mode: 'number' }).notNull(),
  owner: text('owner').notNull(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
});
