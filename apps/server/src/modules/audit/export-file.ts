import type { AuditExportFormat, WireLanguage } from '@coldchain/contract';
import type { FastifyReply } from 'fastify';
import { reportExportRows } from '../export-progress/export-progress.service';
import { writeXlsx } from './xlsx-writer';

/** One column of an export: its header (already in the caller's language) and its cell text. */
export interface ExportColumn<Row> {
  header: string;
  width?: number;
  value: (row: Row) => string | number;
}

export interface ExportFile {
  body: Buffer;
  contentType: string;
  filename: string;
  /** Data rows written (the header row not counted). */
  rowCount: number;
  /** PDF only: the fingerprint printed on its pages (reports/pdf-writer.ts), to record for verifyReport. */
  fingerprint?: string;
}

const CONTENT_TYPES: Record<AuditExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

/** Starts a formula (or, for tab and CR, hides one) in Excel, LibreOffice and Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Every cell of every export passes through here. A spreadsheet program runs a text cell that
 * starts with = + - @ (or a tab or CR before one) as a formula, and names, remarks and accounts
 * come from users, so such text is written with a leading apostrophe: shown as text, never run.
 * Numbers stay numbers (a negative reading is a number, not text to neutralise). xlsx cells get
 * the same guard as CSV: a typed string cell is safe until someone edits it or saves the sheet
 * as CSV, and one rule for both formats is easier to trust.
 */
export function spreadsheetCell(value: string | number): string | number {
  if (typeof value === 'number') return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function csvCell(value: string | number): string {
  const text = String(spreadsheetCell(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function toCsv<Row>(columns: ExportColumn<Row>[], rows: Row[]): Buffer {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  // CSV is written in one go (a fraction of a second even for the largest export).
  reportExportRows(rows.length, rows.length);
  // The byte-order mark makes Excel read the file as UTF-8 (Chinese headers and names).
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

async function toXlsx<Row>(sheetName: string, columns: ExportColumn<Row>[], rows: Row[]): Promise<Buffer> {
  // SpreadsheetML written directly (xlsx-writer.ts): a month of 100 sensors (288 000 rows) in
  // about a second of writing and tens of MB (docs/benchmarks.md, "Reports and exports").
  return writeXlsx(
    sheetName,
    columns.map((c) => ({ header: String(spreadsheetCell(c.header)), width: c.width ?? 18 })),
    (function* cells() {
      for (const row of rows) yield columns.map((c) => spreadsheetCell(c.value(row)));
    })(),
    (written) => reportExportRows(written, rows.length),
  );
}

/**
 * A PDF through the one PDF writer (reports/pdf-writer.ts): the title, when it was made and how
 * many rows, then the table with its header on every page, and the fingerprint in each footer.
 * Cells are printed as text, so no formula guard is needed; loaded at the first PDF (pdfkit and
 * its font are heavy, and most runs never print).
 */
async function toPdf<Row>(
  title: string,
  columns: ExportColumn<Row>[],
  rows: Row[],
  language: WireLanguage,
): Promise<{ body: Buffer; fingerprint: string }> {
  const [{ renderPdf }, { reportTexts }] = await Promise.all([
    import('../reports/pdf-writer'),
    import('../../i18n/catalogues/reports'),
  ]);
  const texts = reportTexts.exportTitle;
  const pdf = await renderPdf(
    {
      language,
      title,
      // Exports are wide tables: above five columns the page is turned sideways.
      landscape: columns.length > 5,
      header: [
        [texts.generatedAt[language], `${formatInstant(Date.now())} UTC`],
        [texts.rows[language], String(rows.length)],
      ],
      sections: [
        {
          kind: 'table',
          columns: columns.map((c) => ({ header: c.header, weight: c.width ?? 18 })),
          rows: rows.map((row) => columns.map((c) => String(c.value(row)))),
        },
      ],
    },
    reportExportRows,
  );
  return { body: pdf.bytes, fingerprint: pdf.fingerprint };
}

export async function buildExportFile<Row>(
  format: AuditExportFormat,
  title: string,
  columns: ExportColumn<Row>[],
  rows: Row[],
  filenameStem: string,
  /** The language of a PDF's own texts (footer, header labels); csv and xlsx have none. */
  language: WireLanguage = 'en',
): Promise<ExportFile> {
  const pdf = format === 'pdf' ? await toPdf(title, columns, rows, language) : null;
  const body = pdf ? pdf.body : format === 'csv' ? toCsv(columns, rows) : await toXlsx(title, columns, rows);
  return {
    body,
    contentType: CONTENT_TYPES[format],
    filename: `${filenameStem}.${format}`,
    rowCount: rows.length,
    ...(pdf ? { fingerprint: pdf.fingerprint } : {}),
  };
}

/** What a call answers with when its answer is a file. */
export interface Download {
  /** The bytes, or a stream of a stored file (modules/files/store), never read whole. */
  body: Buffer | NodeJS.ReadableStream;
  /** A stream's length, sent as Content-Length (a buffer's is counted by Fastify). */
  size?: number;
  filename: string;
  contentType: string;
  /** A PDF's content fingerprint (reports/pdf-writer.ts), the one printed on its pages. */
  fingerprint?: string;
}

/**
 * Every download of the API: the raw file, not an envelope (docs/API.md); errors still come as
 * envelopes. Never cached; a PDF's fingerprint travels as `X-Report-Sha256` for `verifyReport`.
 */
export function sendDownload(reply: FastifyReply, file: Download): FastifyReply {
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', contentDisposition(file.filename))
    .header('Cache-Control', 'no-store');
  if (file.fingerprint) reply.header('X-Report-Sha256', file.fingerprint);
  if (file.size !== undefined) reply.header('Content-Length', file.size);
  return reply.send(file.body);
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266), so Chinese names survive. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** `YYYY-MM-DD HH:mm:ss` in the given IANA zone (UTC when none), as the console shows instants. */
export function formatInstant(epochMs: number, timeZone = 'UTC'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(epochMs))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** `YYYYMMDD` of an instant, for file names. */
export function dayStamp(epochMs: number, timeZone = 'UTC'): string {
  return formatInstant(epochMs, timeZone).slice(0, 10).replaceAll('-', '');
}
