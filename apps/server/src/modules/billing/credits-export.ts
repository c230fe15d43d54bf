import type { CreditLedgerRowView, ExportCreditLedgerRequest, WireLanguage } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { alarmExportTexts } from '../../i18n/catalogues/alarms';
import { creditExportTexts } from '../../i18n/catalogues/credits';
import { AppError } from '../../lib/app-error';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import {
  buildExportFile,
  dayStamp,
  type ExportColumn,
  type ExportFile,
  formatInstant,
} from '../audit/export-file';
import { creditLedger } from '../delivery/delivery.table';
import { recordExportPdf } from '../reports/report-files.service';
import { authorizeExport } from '../signature/signature.service';
import {
  LEDGER_ORDER,
  LEDGER_ROW,
  type LedgerJson,
  presentLedgerRow,
  visibleLedger,
} from './credits.service';

/** Above this many rows an export is refused with a clear message; an object so tests can lower it. */
export const creditExportLimits = { maxRows: 50_000 };

const label = (texts: Record<string, { en: string; cn: string }>, key: string, language: WireLanguage) =>
  texts[key]?.[language] ?? key;

function columns(language: WireLanguage, timeZone: string): ExportColumn<CreditLedgerRowView>[] {
  const { columns: h, kinds, channels, reasons } = creditExportTexts;
  return [
    { header: h.time[language], width: 20, value: (r) => formatInstant(r.createTime, timeZone) },
    { header: h.kind[language], width: 16, value: (r) => label(kinds, r.kind, language) },
    // A number, so a spreadsheet can add the column up.
    { header: h.amount[language], width: 10, value: (r) => r.amount },
    {
      header: h.channel[language],
      width: 12,
      value: (r) => (r.channel ? label(channels, r.channel, language) : ''),
    },
    { header: h.alarm[language], width: 12, value: (r) => r.alarm?.id ?? '' },
    {
      header: h.alarmType[language],
      width: 16,
      value: (r) => (r.alarm ? label(alarmExportTexts.types, r.alarm.alarmType, language) : ''),
    },
    { header: h.device[language], width: 22, value: (r) => r.alarm?.deviceName ?? '' },
    { header: h.serial[language], width: 16, value: (r) => r.alarm?.deviceSerial ?? '' },
    {
      header: h.reason[language],
      width: 24,
      value: (r) => (r.reason ? label(reasons, r.reason, language) : ''),
    },
  ];
}

/**
 * `/api/credit/exportLedger`: the rows the list's filters select, newest first, in one statement.
 * The member's export flag and the audit signature apply as to every export; taking the ledger
 * out is on the audit trail.
 */
export async function exportLedger(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: ExportCreditLedgerRequest,
  language: WireLanguage,
): Promise<ExportFile> {
  const signature = await authorizeExport(
    db,
    { userId: auth.userId, companyId: actor.companyId, ip: actor.ip },
    input.signPassword,
  );
  const where = visibleLedger(auth, input);
  // One row past the cap tells that the selection is too large without counting all of it.
  const rows = await queryRows<{ row: LedgerJson | string; total: number | string }>(
    db,
    sql`select ${LEDGER_ROW} as row, count(*) over () as total from ${creditLedger} where ${where}
        order by ${LEDGER_ORDER} limit ${creditExportLimits.maxRows + 1}::int`,
  );
  if (rows.length > creditExportLimits.maxRows) {
    throw new AppError('CREDIT_EXPORT_TOO_LARGE', {
      count: Number(rows[0]!.total),
      max: creditExportLimits.maxRows,
    });
  }
  const ledger = rows.map((r) =>
    presentLedgerRow(typeof r.row === 'string' ? (JSON.parse(r.row) as LedgerJson) : r.row),
  );
  const timeZone = input.timeZone ?? 'UTC';
  const now = Date.now();
  const file = await buildExportFile(
    input.format,
    creditExportTexts.sheet[language],
    columns(language, timeZone),
    ledger,
    `credit-ledger-${dayStamp(input.startTime ?? ledger.at(-1)?.createTime ?? now, timeZone)}-${dayStamp(input.endTime ?? now, timeZone)}`,
    language,
  );
  // The password and the progress id are not part of what was exported.
  const { signPassword: _, progressId: _progress, ...query } = input;
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: 'credit.exportLedger',
      targetType: 'company',
      targetId: actor.companyId,
      after: { ...query, rows: file.rowCount, ...(signature ? { signature } : {}) },
    });
    await recordExportPdf(tx, actor, 'credit.exportLedger', file);
  });
  return file;
}
