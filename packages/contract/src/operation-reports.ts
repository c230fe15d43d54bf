import { z } from 'zod';
import type { AlarmType } from './alarms';
import { runTaskRequest } from './report-tasks';
import { isTimeZone } from './time-zone';

/*
 * Operation report tasks (spec "Operation report task"; issue 15 item 3; docs/api/operation-reports.md):
 * a task summarises one period (a day, a week or a month) for the company or one department and
 * sends the PDF to its notifiers. Periods follow each other from the start (a local date and hour
 * in the task's time zone); each run covers the period that just ended.
 */

export const OperationReportDurations = ['day', 'week', 'month'] as const;
export type OperationReportDuration = (typeof OperationReportDurations)[number];
export const OperationRunStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type OperationRunStatus = (typeof OperationRunStatuses)[number];

export const OPERATION_TASK_NAME_MAX = 60;
export const OPERATION_NOTIFIERS_MAX = 100;
export const OPERATION_PAGE_NUM_MAX = 1_000_000;

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 2000 && y <= 2999 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** `/api/operationReport/saveTask`: creates (no id) or replaces a task. */
export const SaveOperationTaskRequest = z
  .object({
    id: Id.optional(),
    name: z.string().trim().min(1).max(OPERATION_TASK_NAME_MAX),
    /** The department the report covers (with the departments below it); absent: the whole company. */
    departmentId: Id.optional(),
    duration: z.enum(OperationReportDurations, { error: 'rule.operationDuration' }),
    /** The local date the first period begins, `YYYY-MM-DD`, in `timeZone`. */
    startDate: z.string().trim().refine(isCalendarDate, { error: 'rule.operationStartDate' }),
    /** The local hour (0-23) every period begins and every run is made. */
    startHour: z.coerce
      .number()
      .int({ error: 'rule.operationStartHour' })
      .min(0, { error: 'rule.operationStartHour' })
      .max(23, { error: 'rule.operationStartHour' })
      .default(0),
    notifierIds: z.array(Id).max(OPERATION_NOTIFIERS_MAX).default([]),
    emails: z
      .array(z.email({ error: 'rule.email' }).max(254))
      .max(OPERATION_NOTIFIERS_MAX)
      .default([]),
    /** IANA zone of the periods and of the times in the report; the console sends the browser's. */
    timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).default('UTC'),
  })
  .refine((t) => t.notifierIds.length + t.emails.length > 0, {
    error: 'rule.operationNotifiers',
    path: ['notifierIds'],
  });
export type SaveOperationTaskRequest = z.infer<typeof SaveOperationTaskRequest>;

export const PageOperationTasksRequest = z.object({
  // Bounded (db/page-query.ts also clamps the offset, so any list answers a far page empty).
  pageNum: z.coerce.number().int().min(1).max(OPERATION_PAGE_NUM_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageOperationTasksRequest = z.infer<typeof PageOperationTasksRequest>;

/** `/api/operationReport/runTask`: at most a quarter when a period is given. */
export const RunOperationTaskRequest = runTaskRequest(93, 'rule.operationPeriod');
export type RunOperationTaskRequest = z.infer<typeof RunOperationTaskRequest>;

export const PageOperationRunsRequest = z.object({
  taskId: Id.optional(),
  status: z.enum(OperationRunStatuses).optional(),
  // Bounded (db/page-query.ts also clamps the offset, so any list answers a far page empty).
  pageNum: z.coerce.number().int().min(1).max(OPERATION_PAGE_NUM_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageOperationRunsRequest = z.infer<typeof PageOperationRunsRequest>;

/** `deleteTask`, `downloadRun`, `runFigures`. */
export const OperationIdRequest = z.object({ id: Id });
export type OperationIdRequest = z.infer<typeof OperationIdRequest>;

export interface OperationTaskView {
  id: string;
  name: string;
  /** Null: the whole company. */
  departmentId: string | null;
  departmentName: string | null;
  duration: OperationReportDuration;
  startDate: string;
  startHour: number;
  notifierIds: string[];
  /** Names of the notifiers still in the company, in the order of `notifierIds`. */
  notifierNames: string[];
  emails: string[];
  timeZone: string;
  /** When the next scheduled run falls due (epoch ms): the end of the period in progress. */
  nextRunTime: number;
  createTime: number;
}

export interface OperationRunView {
  id: string;
  taskId: string;
  taskName: string;
  departmentId: string | null;
  departmentName: string | null;
  duration: OperationReportDuration;
  status: OperationRunStatus;
  startTime: number;
  endTime: number;
  timeZone: string;
  size: number | null;
  /** How long making and sending the report took, in ms; null until the run ends. */
  durationMs: number | null;
  error: string | null;
  fileName: string | null;
  createTime: number;
}

/**
 * What a report says (the PDF prints the same figures). Availability is the share of device-hours
 * of the period in which the device stored at least one reading (docs/api/operation-reports.md).
 */
export interface OperationFigures {
  companyName: string;
  /** Null: the whole company. */
  departmentName: string | null;
  startTime: number;
  endTime: number;
  timeZone: string;
  generatedAt: number;
  devices: { total: number; online: number };
  availability: {
    expectedHours: number;
    coveredHours: number;
    /** coveredHours / expectedHours, 0..1; null without any expected hour. */
    ratio: number | null;
    /** The devices with the lowest availability first (at most 20). */
    lowest: { deviceId: string; name: string; serial: string; ratio: number | null }[];
  };
  alarms: {
    total: number;
    byType: {
      alarmType: AlarmType | string;
      level1: number;
      level2: number;
      level3: number;
      total: number;
    }[];
    byLevel: { level: number; count: number }[];
  };
  resolution: {
    /** Alarms of the period resolved by a person. */
    resolved: number;
    /** From the alarm to its resolution, in ms; null when none was resolved. */
    medianMs: number | null;
    worstMs: number | null;
  };
  unresolved: {
    count: number;
    /** The oldest first (at most 50). */
    list: {
      alarmId: string;
      deviceName: string;
      serial: string;
      alarmType: string;
      level: number;
      alarmTime: number;
    }[];
  };
  /** Equipment of the scope that has an excursion budget. */
  equipment: {
    equipmentId: string;
    name: string;
    serial: string;
    budgetMinutes: number;
    usedMinutes: number;
    ratio: number;
  }[];
  credits: { spent: number; byChannel: { channel: string; spent: number }[] };
}
