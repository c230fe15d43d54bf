import { z } from 'zod';
import { MAX_INSTANT_MS } from './rules';
import { isTimeZone } from './time-zone';

/*
 * Data report backup tasks (spec "Data report backup task"; API.md "Reports"): a task names what
 * to take out (history data, alarm records, equipment records, audit trail), how often (daily 3 am,
 * weekly Monday 2 am, monthly 1 am on the 1st, in the task's time zone) and to whom it goes. Each
 * run makes one file of the period just ended.
 */

export const ReportTaskTypes = ['history', 'alarm', 'equipment', 'audit'] as const;
export type ReportTaskType = (typeof ReportTaskTypes)[number];
export const ReportFrequencies = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof ReportFrequencies)[number];
export const ReportFormats = ['pdf', 'xlsx', 'csv'] as const;
export type ReportFormat = (typeof ReportFormats)[number];
export const ReportRunStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type ReportRunStatus = (typeof ReportRunStatuses)[number];

export const REPORT_TASK_NAME_MAX = 60;
/** Most devices, equipment, recipients and addresses one task names. */
export const REPORT_TASK_LIST_MAX = 200;

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const Ids = z.array(Id).max(REPORT_TASK_LIST_MAX).default([]);
const Instant = z.number().int().positive().max(MAX_INSTANT_MS, { error: 'rule.instant' });

/** `/api/report/saveTask`: creates (no id) or replaces a task. */
export const SaveReportTaskRequest = z
  .object({
    id: Id.optional(),
    name: z.string().trim().min(1).max(REPORT_TASK_NAME_MAX),
    type: z.enum(ReportTaskTypes, { error: 'rule.reportType' }),
    frequency: z.enum(ReportFrequencies, { error: 'rule.reportFrequency' }),
    format: z.enum(ReportFormats, { error: 'rule.reportFormat' }),
    deviceIds: Ids,
    equipmentIds: Ids,
    recipientIds: Ids,
    emails: z
      .array(z.email({ error: 'rule.email' }).max(254))
      .max(REPORT_TASK_LIST_MAX)
      .default([]),
    /**
     * IANA zone of the schedule and of the times in the file. A company has no time zone of its
     * own, so the task carries it (the console sends the browser's); UTC when absent.
     */
    timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).default('UTC'),
  })
  .refine((t) => t.type !== 'history' || t.deviceIds.length > 0, {
    error: 'rule.reportDevices',
    path: ['deviceIds'],
  })
  .refine((t) => t.type !== 'equipment' || t.equipmentIds.length === 1, {
    error: 'rule.reportEquipment',
    path: ['equipmentIds'],
  })
  .refine((t) => t.recipientIds.length + t.emails.length > 0, {
    error: 'rule.reportRecipients',
    path: ['recipientIds'],
  });
export type SaveReportTaskRequest = z.infer<typeof SaveReportTaskRequest>;

export const PageReportTasksRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageReportTasksRequest = z.infer<typeof PageReportTasksRequest>;

/**
 * "Run now" of a scheduled task (backup and operation report tasks): for the period just ended,
 * or for the one given, which ends after it starts and spans at most `maxDays`.
 */
export function runTaskRequest(maxDays: number, periodRule: string) {
  return z
    .object({ id: Id, startTime: Instant.optional(), endTime: Instant.optional() })
    .refine((r) => (r.startTime === undefined) === (r.endTime === undefined), {
      error: 'rule.timeRange',
      path: ['endTime'],
    })
    .refine((r) => r.startTime === undefined || r.endTime! > r.startTime, {
      error: 'rule.timeRange',
      path: ['endTime'],
    })
    .refine((r) => r.startTime === undefined || r.endTime! - r.startTime <= maxDays * 86_400_000, {
      error: periodRule,
      path: ['endTime'],
    });
}

/** `/api/report/runTask`. */
export const RunReportTaskRequest = runTaskRequest(366, 'rule.exportPeriod');
export type RunReportTaskRequest = z.infer<typeof RunReportTaskRequest>;

export const PageReportRunsRequest = z.object({
  taskId: Id.optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageReportRunsRequest = z.infer<typeof PageReportRunsRequest>;

/** `/api/report/deleteTask`, `/api/report/downloadRun`. */
export const ReportIdRequest = z.object({ id: Id });
export type ReportIdRequest = z.infer<typeof ReportIdRequest>;

export interface ReportTaskView {
  id: string;
  name: string;
  type: ReportTaskType;
  frequency: ReportFrequency;
  format: ReportFormat;
  deviceIds: string[];
  equipmentIds: string[];
  recipientIds: string[];
  emails: string[];
  timeZone: string;
  /** When the next scheduled run falls due (epoch ms). */
  nextRunTime: number;
  createTime: number;
}

export interface ReportRunView {
  id: string;
  taskId: string;
  taskName: string;
  status: ReportRunStatus;
  /** The period the file covers. */
  startTime: number;
  endTime: number;
  /** Bytes of the file; null until it is made. */
  size: number | null;
  /** How long making and sending the file took, in ms; null until the run ends. */
  duration: number | null;
  error: string | null;
  fileName: string | null;
  createTime: number;
}
