import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Backup files are the company's generated files (reports/report-files.service.ts stores them
 * under UPLOAD_DIR/reports/ with 128-bit random names). Not in the upload folder itself: that one
 * is served without a login (`/files/<name>`); a run's file is read only through `downloadRun`
 * (backup:view, a task the caller sees) or a signed link.
 */
const REPORT_DIR = 'reports';
const STORED_NAME = /^[a-f0-9]{32}\.(pdf|xlsx|csv)$/;

/** The stored bytes, or null when the name is not one of ours or the file is gone. */
export async function readReportFile(uploadDir: string, storedName: string): Promise<Buffer | null> {
  if (!STORED_NAME.test(storedName)) return null;
  return readFile(path.join(uploadDir, REPORT_DIR, storedName)).catch(() => null);
}
