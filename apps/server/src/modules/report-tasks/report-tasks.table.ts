import type { ReportFormat, ReportFrequency, ReportRunStatus, ReportTaskType } from '@coldchain/contract';
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
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';

/**
 * Data report backup tasks (modules/report-tasks). A task runs as its owner (the member who last
 * saved it): their department scope and export rights decide what the file holds.
 */
export const reportTasks = pgTable(
  'report_tasks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    type: text('type').$type<ReportTaskType>().notNull(),
    frequency: text('frequency').$type<ReportFrequency>().notNull(),
    format: text('format').$type<ReportFormat>().notNull(),
    deviceIds: jsonb('device_ids').$type<number[]>().notNull().default([]),
    equipmentIds: jsonb('equipment_ids').$type<number[]>().notNull().default([]),
    recipientIds: jsonb('recipient_ids').$type<number[]>().notNull().default([]),
    emails: jsonb('emails').$type<string[]>().notNull().default([]),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Language of the file and the e-mail: the owner's when saving. */
    language: text('language').$type<'en' | 'cn'>().notNull().default('en'),
    /** The scheduled run the queue holds a job for; a job for any other instant is stale. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_tasks_company_idx').on(t.companyId)],
);

/** One run of a task: one file of one period. */
export const reportRuns = pgTable(
  'report_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => reportTasks.id, { onDelete: 'cascade' }),
    /** The scheduled instant for a scheduled run (one run per occurrence); null for "run now". */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    status: text('status').$type<ReportRunStatus>().notNull().default('queued'),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    fileName: text('file_name'),
    contentType: text('content_type'),
    /** The file's name in the report store (report-store.ts); never shown. */
    storedName: text('stored_name'),
    size: integer('size'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    /** Key of the signed download links of this run's e-mail (report-link.ts). */
    linkKey: text('link_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_runs_task_idx').on(t.taskId, t.createdAt),
    index('report_runs_company_idx').on(t.companyId),
    uniqueIndex('report_runs_occurrence_idx').on(t.taskId, t.scheduledFor),
  ],
);
export type ReportTaskRow = typeof reportTasks.$inferSelect;
export type ReportRunRow = typeof reportRuns.$inferSelect;
