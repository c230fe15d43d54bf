import { bigint, bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';

/**
 * Every report file the server generated (sensor reports, PDF exports, scheduled report runs):
 * where it is stored and its two hashes. `fingerprint` is the SHA-256 printed on each page
 * (docs/decisions.md, "Report fingerprint"), which `/api/report/verifyReport` looks up;
 * `file_sha256` is the hash of the stored bytes, to check a downloaded copy.
 */
export const reportFiles = pgTable(
  'report_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** What made it: `sensorReport`, `export.alarms`, `backup.history`, ... */
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    fingerprint: text('fingerprint').notNull(),
    fileSha256: text('file_sha256').notNull(),
    size: integer('size').notNull(),
    /** Null for a scheduled run, or once the user is deleted: the name below stays. */
    generatedBy: bigint('generated_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    /** The generator's name when the file was made, as printed on it. */
    generatedByName: text('generated_by_name').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Where the file is kept under the upload directory (`reports/<random>.pdf`); null for a PDF
     * export, which is handed out on the spot and not kept: its fingerprint is recorded all the same.
     */
    storedPath: text('stored_path'),
  },
  (t) => [
    index('report_files_fingerprint_idx').on(t.fingerprint),
    index('report_files_company_time_idx').on(t.companyId, t.generatedAt),
  ],
);
