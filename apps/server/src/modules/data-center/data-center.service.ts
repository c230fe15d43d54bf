import type { Readable } from 'node:stream';
import type { Page, PageReportFilesRequest, ReportFileView } from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { epochParam, pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import type { FileStore } from '../files/store/store';
import { visibleOperationTasks } from '../operation-reports/operation-reports.service';
import { operationReportRuns, operationReportTasks } from '../operation-reports/operation-reports.table';
import { reportRuns, reportTasks } from '../report-tasks/report-tasks.table';
import { reportFiles } from '../reports/report-files.table';

/**
 * The tag that the data a file holds is read with, by the file's kind: a data centre download must
 * not give a member what the page of that data would refuse them. Kinds made later (operation
 * reports) fall to `report:view`, which the data centre itself needs. Constant text, so the list's
 * statement stays one plan.
 */
const KIND_TAG = sql.raw(`(case
  when report_files.kind = 'backup.audit' or report_files.kind like 'audit.%' then 'audit:view'
  when report_files.kind = 'backup.alarm' or report_files.kind like 'alarm.%' then 'alarm:view'
  when report_files.kind in ('backup.equipment', 'equipmentReport') or report_files.kind like 'equipment.%' then 'equipment:view'
  when report_files.kind in ('backup.history', 'sensorReport') or report_files.kind like 'device.%' then 'device:view'
  else 'report:view' end)`);

/**
 * Files the caller may see: of the company in scope, of a kind whose data they may read, and, for a
 * member limited to a department, only the files that hold their own view: those they generated,
 * the runs of backup tasks they own (a task's files hold its owner's view, report-tasks), and the
 * operation reports of tasks they see, those of their department and below (operation reports have
 * no generating user; visibleOperationTasks). Members who see the whole company see every file
 * of the company.
 */
export function visibleFiles(auth: Auth): SQL {
  const company = eq(reportFiles.companyId, auth.companyId ?? -1);
  const tags = [...auth.authTags].join(',');
  const readable = sql`${KIND_TAG} = any(string_to_array(${tags}::text, ','))`;
  if (auth.scopePath === null) return and(company, readable)!;
  const own = sql`(${reportFiles.generatedBy} = ${auth.userId}::bigint or exists (
    select 1 from ${reportRuns} r join ${reportTasks} t on t.id = r.task_id
    where r.company_id = ${reportFiles.companyId} and 'reports/' || r.stored_name = ${reportFiles.storedPath}
      and t.owner_id = ${auth.userId}::bigint) or exists (
    select 1 from ${operationReportRuns} r join ${operationReportTasks} on ${operationReportTasks.id} = r.task_id
    where r.report_file_id = ${reportFiles.id} and ${visibleOperationTasks(auth)}))`;
  return and(company, readable, own)!;
}

/** `kind` as given, or any kind of its group (`backup` -> `backup.history`, ...). */
function kindFilter(kind: string | undefined): SQL {
  return whenGiven(
    kind ?? null,
    'text',
    (k) => sql`(${reportFiles.kind} = ${k} or ${reportFiles.kind} like ${k} || '.%')`,
  );
}

function keywordFilter(keyword: string | undefined): SQL {
  const pattern = keyword ? `%${keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
  return whenGiven(pattern, 'text', (p) => sql`${reportFiles.fileName} ilike ${p}`);
}

const FILE_ROW = jsonRowOf(reportFiles, 'report_files', [
  'id',
  'kind',
  'fileName',
  'fingerprint',
  'fileSha256',
  'size',
  'generatedByName',
  'generatedAt',
  'storedPath',
]);

function presentFile(raw: Record<string, unknown>): ReportFileView {
  const f = decodeJsonRow(reportFiles, raw);
  return {
    id: idToWire(f.id),
    kind: f.kind,
    fileName: f.fileName,
    size: f.size,
    fingerprint: f.fingerprint,
    fileSha256: f.fileSha256,
    generatedAt: f.generatedAt.getTime(),
    generatedBy: f.generatedByName,
    stored: f.storedPath !== null,
  };
}

/** `/api/dataCenter/pageFiles`: one statement (db/page-query.ts), newest first. */
export async function pageFiles(
  db: Queryable,
  auth: Auth,
  query: PageReportFilesRequest,
): Promise<Page<ReportFileView>> {
  const where = and(
    visibleFiles(auth),
    kindFilter(query.kind),
    keywordFilter(query.keyword),
    whenGiven(query.startTime ?? null, 'float8', (t) => sql`${reportFiles.generatedAt} >= ${epochParam(t)}`),
    whenGiven(query.endTime ?? null, 'float8', (t) => sql`${reportFiles.generatedAt} < ${epochParam(t)}`),
  );
  return pageOf(
    db,
    {
      row: FILE_ROW,
      from: reportFiles,
      where,
      orderBy: sql`${reportFiles.generatedAt} desc, ${reportFiles.id} desc`,
    },
    query,
    presentFile,
  );
}

/** Where generated files are kept (reports/report-files.service.ts): random names only. */
const STORED_PATH = /^reports\/[a-f0-9]{32}\.(pdf|xlsx|csv)$/;
const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

export interface FileDownload {
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  /** Opened from the file store: the caller sends it (or destroys it). */
  body: Readable;
}

/**
 * `/api/dataCenter/downloadFile`: a file the caller sees (visibleFiles), streamed from the
 * file store. A recorded PDF export has no stored file; a file removed from the store is gone.
 */
export async function fileDownload(
  db: Queryable,
  auth: Auth,
  files: FileStore,
  wireId: string,
): Promise<FileDownload> {
  const [row] = await db
    .select({
      fileName: reportFiles.fileName,
      storedPath: reportFiles.storedPath,
      sha256: reportFiles.fileSha256,
    })
    .from(reportFiles)
    .where(and(eq(reportFiles.id, idFromWire(wireId) ?? -1), visibleFiles(auth)));
  if (!row) throw new AppError('REPORT_FILE_NOT_FOUND');
  if (!row.storedPath) throw new AppError('REPORT_FILE_NOT_KEPT');
  const match = STORED_PATH.exec(row.storedPath);
  if (!match) throw new AppError('REPORT_FILE_MISSING');
  const file = await files.get(row.storedPath);
  if (!file) throw new AppError('REPORT_FILE_MISSING');
  return {
    fileName: row.fileName,
    contentType: CONTENT_TYPES[match[1]!]!,
    size: file.size,
    sha256: row.sha256,
    body: file.body,
  };
}
