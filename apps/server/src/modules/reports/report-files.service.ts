import { randomBytes } from 'node:crypto';
import type { VerifyReportAnswer } from '@coldchain/contract';
import { and, desc, eq, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { contentTypeOfKey, type FileStore, readStoredBytes, type StoredFile } from '../files/store/store';
import { users } from '../users/users.table';
import { sha256Hex } from './pdf-writer';
import { reportFiles } from './report-files.table';

/**
 * Generated report files live under `reports/` in the file store (`<upload dir>/reports/` on disk),
 * out of reach of the public `/files/:name` route (it serves the top level only): a report is
 * downloaded through a call that checks the caller, never by its name alone.
 */
const REPORTS_SUBDIR = 'reports';

export type ReportFileFormat = 'pdf' | 'xlsx' | 'csv';

export interface NewReportFile {
  companyId: number;
  /** What made it: `sensorReport`, `export.alarms`, `backup.history`, ... */
  kind: string;
  fileName: string;
  format: ReportFileFormat;
  bytes: Buffer;
  /** The fingerprint printed on the pages (pdf-writer.ts); for xlsx and csv, the file's hash. */
  fingerprint?: string;
  /** Null for a scheduled run. */
  generatedBy: number | null;
  generatedByName: string;
  generatedAt?: Date;
}

/**
 * Stores a generated file and records it, so `verifyReport` finds its fingerprint and a data
 * centre or a backup run can list and download it. Returns the record's id and stored path.
 */
export async function recordReportFile(
  db: Queryable,
  files: FileStore,
  file: NewReportFile,
): Promise<{ id: number; storedPath: string }> {
  // A random 128-bit name, never overwritten; stored before the row, so a row always has its file.
  const storedPath = `${REPORTS_SUBDIR}/${randomBytes(16).toString('hex')}.${file.format}`;
  await files.put(storedPath, file.bytes, { contentType: contentTypeOfKey(storedPath) });
  const fileSha256 = sha256Hex(file.bytes);
  const [row] = await db
    .insert(reportFiles)
    .values({
      companyId: file.companyId,
      kind: file.kind,
      fileName: file.fileName,
      fingerprint: file.fingerprint ?? fileSha256,
      fileSha256,
      size: file.bytes.length,
      generatedBy: file.generatedBy,
      generatedByName: file.generatedByName,
      generatedAt: file.generatedAt ?? new Date(),
      storedPath,
    })
    .returning({ id: reportFiles.id });
  return { id: row!.id, storedPath };
}

/** A PDF export as the shared export writer returns it (audit/export-file.ts). */
export interface ExportedPdf {
  body: Buffer;
  filename: string;
  fingerprint?: string;
}

/**
 * Records the fingerprint of a PDF export (device data, alarms, audit logs), so its printed pages
 * can be checked with `verifyReport`. The file itself is handed out on the spot and not kept.
 * Does nothing for csv and xlsx, which carry no printed fingerprint.
 */
export async function recordExportPdf(
  db: Queryable,
  who: { companyId: number; userId: number | null },
  kind: string,
  file: ExportedPdf,
): Promise<void> {
  if (!file.fingerprint) return;
  const [user] = who.userId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, who.userId))
    : [];
  await db.insert(reportFiles).values({
    companyId: who.companyId,
    kind,
    fileName: file.filename,
    fingerprint: file.fingerprint,
    fileSha256: sha256Hex(file.body),
    size: file.body.length,
    generatedBy: who.userId,
    generatedByName: user?.name ?? '',
    storedPath: null,
  });
}

/** `reports/<128-bit name>.<format>`: anything else in a row is not read. */
const STORED_PATH = /^reports\/[a-f0-9]{32}\.(pdf|xlsx|csv)$/;

/** The bytes of a recorded file, from its stored path (to attach it to a mail); null when it is gone. */
export async function readReportFile(files: FileStore, storedPath: string): Promise<Buffer | null> {
  return STORED_PATH.test(storedPath) ? readStoredBytes(files, storedPath) : null;
}

/** A recorded file as a stream to download; null when the path is not one of ours or the file is gone. */
export async function openReportFile(files: FileStore, storedPath: string): Promise<StoredFile | null> {
  return STORED_PATH.test(storedPath) ? files.get(storedPath) : null;
}

/**
 * `/api/report/verifyReport`: a fingerprint printed on a report, or the SHA-256 of a downloaded
 * file, among the company's own generated files (another company's file is "not found").
 */
export async function verifyReport(
  db: Queryable,
  companyId: number,
  sha256: string,
): Promise<VerifyReportAnswer> {
  const [row] = await db
    .select({
      fileName: reportFiles.fileName,
      generatedAt: reportFiles.generatedAt,
      generatedBy: reportFiles.generatedByName,
    })
    .from(reportFiles)
    .where(
      and(
        eq(reportFiles.companyId, companyId),
        or(eq(reportFiles.fingerprint, sha256), eq(reportFiles.fileSha256, sha256)),
      ),
    )
    .orderBy(desc(reportFiles.generatedAt))
    .limit(1);
  if (!row) return { found: false, fileName: null, generatedAt: null, generatedBy: null };
  return {
    found: true,
    fileName: row.fileName,
    generatedAt: row.generatedAt.getTime(),
    generatedBy: row.generatedBy,
  };
}
