import type { ReportFormat, ReportFrequency, ReportRunStatus, ReportTaskType } from '@coldchain/contract';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  scheduledRunColumns,
  scheduledRunTailColumns,
  scheduledTaskColumns,
  scheduledTaskTailColumns,
} from '../scheduled-reports/scheduled-tables';

/**
 * Data report backup tasks (modules/report-tasks). A task runs as its owner (the member who last
 * saved it): their department scope and export rights decide what the file holds.
 */
export const reportTasks = pgTable(
  'report_tasks',
  {
    ...scheduledTaskColumns(),
    type: text('type').$type<ReportTaskType>().notNull(),
    frequency: text('frequency').$type<ReportFrequency>().notNull(),
    format: text('format').$type<ReportFormat>().notNull(),
    deviceIds: jsonb('device_ids').$type<number[]>().notNull().default([]),
    equipmentIds: jsonb('equipment_ids').$type<number[]>().notNull().default([]),
    recipientIds: jsonb('recipient_ids').$type<number[]>().notNull().default([]),
    ...scheduledTaskTailColumns(),
  },
  (t) => [index('report_tasks_company_idx').on(t.companyId)],
);

/** One run of a task: one file of one period. */
export const reportRuns = pgTable(
  'report_runs',
  {
    ...scheduledRunColumns<ReportRunStatus>(() => reportTasks.id),
    contentType: text('content_type'),
    /** The file's name in the report store (report-store.ts); never shown. */
    storedName: text('stored_name'),
    ...scheduledRunTailColumns(),
  },
  (t) => [
    index('report_runs_task_idx').on(t.taskId, t.createdAt),
    index('report_runs_company_idx').on(t.companyId),
    uniqueIndex('report_runs_occurrence_idx').on(t.taskId, t.scheduledFor),
  ],
);
export type ReportTaskRow = typeof reportTasks.$inferSelect;
export type ReportRunRow = typeof reportRuns.$inferSelect;
