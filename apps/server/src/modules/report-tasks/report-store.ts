import type { FileStore, StoredFile } from '../files/store/store';
import { openReportFile, readReportFile } from '../reports/report-files.service';

/**
 * Backup files are the company's generated files (reports/report-files.service.ts stores them
 * under `reports/` in the file store with 128-bit random names). Not at the store's top level:
 * that one is served without a login (`/files/<name>`); a run's file is read only through
 * `downloadRun` (backup:view, a task the caller sees) or a signed link. A run keeps the name only.
 */
const REPORT_DIR = 'reports';

/** The stored bytes (a retried run mails them again), or null when the name is not one of ours or the file is gone. */
export function readRunFile(files: FileStore, storedName: string): Promise<Buffer | null> {
  return readReportFile(files, `${REPORT_DIR}/${storedName}`);
}

/** The stored file as a stream to download, or null like `readRunFile`. */
export function openRunFile(files: FileStore, storedName: string): Promise<StoredFile | null> {
  return openReportFile(files, `${REPORT_DIR}/${storedName}`);
}
