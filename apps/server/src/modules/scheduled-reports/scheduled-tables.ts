import type { WireLanguage } from '@coldchain/contract';
import { type AnyPgColumn, bigint, bigserial, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';

/**
 * The columns every scheduled report task and run table has (report_tasks and report_runs,
 * operation_report_tasks and operation_report_runs), each module adding its own. Fresh builders
 * on every call: a column builder belongs to one table.
 */

/** A task runs as its owner (the member who last saved it): what they may see decides the file. */
export function scheduledTaskColumns() {
  return {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
  };
}

export function scheduledTaskTailColumns() {
  return {
    emails: jsonb('emails').$type<string[]>().notNull().default([]),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Language of the file and the e-mail: the saver's. */
    language: text('language').$type<WireLanguage>().notNull().default('en'),
    /** The scheduled run the queue holds a job for; a job for any other instant is stale. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  };
}

/** One run of a task: one file of one period; `taskId` is the task table's id. */
export function scheduledRunColumns<Status extends string>(taskId: () => AnyPgColumn) {
  return {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    taskId: bigint('task_id', { mode: 'number' }).notNull().references(taskId, { onDelete: 'cascade' }),
    /** The scheduled instant for a scheduled run (one run per occurrence); null for "run now". */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    status: text('status')
      .$type<Status>()
      .notNull()
      .default('queued' as Status),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
  };
}

export function scheduledRunTailColumns() {
  return {
    fileName: text('file_name'),
    size: integer('size'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    /** Key of the signed download links of this run's e-mail (run-link.ts). */
    linkKey: text('link_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  };
}
