import { z } from 'zod';
import { MAX_INSTANT_MS } from './rules';

/*
 * Data centre (`dataCenter`, issue 15): every file the platform generated for the company (backup
 * runs, sensor reports, operation reports, recorded PDF exports), listed, filtered, downloaded,
 * and checked against a printed copy with `/api/report/verifyReport` (docs/API.md "Data centre").
 */

/**
 * The groups a file's `kind` falls in, for the list's kind filter. A filter value matches a kind
 * equal to it or starting with it and a dot: `backup` matches `backup.history`, `backup.alarm`...
 */
export const ReportFileKindGroups = [
  'backup',
  'sensorReport',
  'equipmentReport',
  /** Operation reports (modules/operation-reports). */
  'operation',
  'device',
  'alarm',
  'audit',
] as const;
export type ReportFileKindGroup = (typeof ReportFileKindGroups)[number];

export const DATA_CENTER_KEYWORD_MAX = 60;

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const Instant = z.number().int().positive().max(MAX_INSTANT_MS, { error: 'rule.instant' });

/** `/api/dataCenter/pageFiles`: newest first. */
export const PageReportFilesRequest = z
  .object({
    pageNum: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
    /** A kind (`backup.history`) or its group (`backup`). */
    kind: z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)?$/, { error: 'rule.reportKind' })
      .max(60)
      .optional(),
    /** Part of the file name, any case. */
    keyword: z.string().trim().max(DATA_CENTER_KEYWORD_MAX).optional(),
    /** Generated at or after / before (epoch ms). */
    startTime: Instant.optional(),
    endTime: Instant.optional(),
  })
  .refine((r) => r.startTime === undefined || r.endTime === undefined || r.endTime > r.startTime, {
    error: 'rule.timeRange',
    path: ['endTime'],
  });
export type PageReportFilesRequest = z.infer<typeof PageReportFilesRequest>;

/** `/api/dataCenter/downloadFile` `{ id }` -> the raw file. */
export const ReportFileIdRequest = z.object({ id: Id });
export type ReportFileIdRequest = z.infer<typeof ReportFileIdRequest>;

export interface ReportFileView {
  id: string;
  /** What made it: `backup.history`, `sensorReport`, `alarm.export`, ... */
  kind: string;
  fileName: string;
  /** Bytes. */
  size: number;
  /** The SHA-256 printed on a PDF's pages (for xlsx and csv, the file's own hash). */
  fingerprint: string;
  /** The SHA-256 of the file's bytes, to check a downloaded copy. */
  fileSha256: string;
  generatedAt: number;
  /** The generator's name as printed on the file (a backup run names its task). */
  generatedBy: string;
  /** False for a PDF export handed out on the spot: its fingerprint is kept, the file is not. */
  stored: boolean;
}
