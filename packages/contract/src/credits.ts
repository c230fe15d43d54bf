import { z } from 'zod';
import { type AlarmChannel, AlarmChannels, type AlarmType } from './alarms';
import { AuditExportFormats } from './audit';
import { ExportProgressField } from './export-progress';
import { MAX_INSTANT_MS } from './rules';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

/*
 * Message credit (spec section 9, issue 17 item 1): the company's balance and its ledger
 * (API.md "Billing"). The balance counts credits, not money: an SMS costs 1 credit per 70
 * characters, a phone call or an e-mail 1 each, so `currency` is always "credit".
 */

export const CreditLedgerKinds = ['grant', 'debit', 'refund'] as const;
export type CreditLedgerKind = (typeof CreditLedgerKinds)[number];

/** `/api/credit/balance`. */
export interface CreditBalanceView {
  balance: number;
  currency: 'credit';
}

const Instant = z.coerce.number({ error: 'rule.instant' }).int().nonnegative().max(MAX_INSTANT_MS, {
  error: 'rule.instant',
});

/** The ledger's filters, shared by the list and the export; the period is [startTime, endTime). */
const ledgerFilters = {
  kind: z.enum(CreditLedgerKinds).optional(),
  /** Only rows of messages sent on this channel (debits and refunds; grants have none). */
  channel: z.enum(AlarmChannels).optional(),
  startTime: Instant.optional(),
  endTime: Instant.optional(),
};

const periodInOrder = (r: { startTime?: number; endTime?: number }) =>
  r.startTime === undefined || r.endTime === undefined || r.endTime > r.startTime;

/** `/api/credit/pageLedger`: newest first. */
export const PageCreditLedgerRequest = z
  .object({
    pageNum: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
    ...ledgerFilters,
  })
  .refine(periodInOrder, { error: 'rule.timeRange', path: ['endTime'] });
export type PageCreditLedgerRequest = z.infer<typeof PageCreditLedgerRequest>;

/** `/api/credit/exportLedger`: the rows the list's filters select, as xlsx, csv or pdf. */
export const ExportCreditLedgerRequest = z
  .object({
    ...ledgerFilters,
    format: z.enum(AuditExportFormats, { error: 'rule.exportFormat' }),
    /** IANA zone the times in the file are written in; UTC when absent. */
    timeZone: z.string().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).optional(),
    signPassword: SignPasswordField,
    /** The console's id for `/api/export/progress` while the file is made. */
    progressId: ExportProgressField,
  })
  .refine(periodInOrder, { error: 'rule.timeRange', path: ['endTime'] });
export type ExportCreditLedgerRequest = z.infer<typeof ExportCreditLedgerRequest>;

/** The alarm a debit or refund paid for (null once the alarm or its device is gone). */
export interface CreditLedgerAlarmView {
  id: string;
  alarmType: AlarmType;
  deviceId: string;
  deviceName: string;
  deviceSerial: string;
}

/** One change of the balance. */
export interface CreditLedgerRowView {
  id: string;
  kind: CreditLedgerKind;
  /** Signed: negative for debits. */
  amount: number;
  /** The message's channel (debits and refunds); null for grants. */
  channel: AlarmChannel | null;
  alarm: CreditLedgerAlarmView | null;
  /** The order a grant came from; null while no order buys credit (docs/decisions.md). */
  order: { id: string; orderNo: string } | null;
  /** Why a grant was made ("starter credit", "demo starting balance", an operator's note). */
  reason: string;
  createTime: number;
}
