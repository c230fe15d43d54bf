import type { OperationFigures, OperationReportDuration, OperationRunStatus } from '@coldchain/contract';
import { bigint, index, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { departments } from '../org/org.table';
import { reportFiles } from '../reports/report-files.table';
import {
  scheduledRunColumns,
  scheduledRunTailColumns,
  scheduledTaskColumns,
  scheduledTaskTailColumns,
} from '../scheduled-reports/scheduled-tables';

/**
 * Operation report tasks (modules/operation-reports): a summary of each period for the company
 * (`department_id` null) or one department and the departments below it. A run is made only
 * while the owner (the member who last saved it) may still see its scope.
 */
export const operationReportTasks = pgTable(
  'operation_report_tasks',
  {
    ...scheduledTaskColumns(),
    /** Null: the whole company. A deleted department takes its tasks with it. */
    departmentId: bigint('department_id', { mode: 'number' }).references(() => departments.id, {
      onDelete: 'cascade',
    }),
    duration: text('duration').$type<OperationReportDuration>().notNull(),
    /** Local date (`YYYY-MM-DD`) and hour of the first period's start, in `time_zone`. */
    startDate: text('start_date').notNull(),
    startHour: smallint('start_hour').notNull().default(0),
    notifierIds: jsonb('notifier_ids').$type<number[]>().notNull().default([]),
    ...scheduledTaskTailColumns(),
  },
  (t) => [index('operation_report_tasks_company_idx').on(t.companyId)],
);

/** One run of a task: the figures and the PDF of one period. */
export const operationReportRuns = pgTable(
  'operation_report_runs',
  {
    ...scheduledRunColumns<OperationRunStatus>(() => operationReportTasks.id),
    /** What the report says, as the console's report view shows it. */
    figures: jsonb('figures').$type<OperationFigures>(),
    /** The stored PDF among the company's generated files (data centre, verifyReport). */
    reportFileId: bigint('report_file_id', { mode: 'number' }).references(() => reportFiles.id, {
      onDelete: 'set null',
    }),
    ...scheduledRunTailColumns(),
  },
  (t) => [
    index('operation_report_runs_task_idx').on(t.taskId, t.createdAt),
    index('operation_report_runs_company_idx').on(t.companyId, t.createdAt),
    uniqueIndex('operation_report_runs_occurrence_idx').on(t.taskId, t.scheduledFor),
  ],
);
export type OperationTaskRow = typeof operationReportTasks.$inferSelect;
export type OperationRunRow = typeof operationReportRuns.$inferSelect;
