import type {
  AlarmChannel,
  AlarmType,
  CreditBalanceView,
  CreditLedgerKind,
  CreditLedgerRowView,
  Page,
  PageCreditLedgerRequest,
} from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { epochParam, pageOf, whenGiven } from '../../db/page-query';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { creditBalance } from '../delivery/credits.service';
import { creditLedger } from '../delivery/delivery.table';
import { devices } from '../devices/devices.table';
import { deviceIdsWhere, visibleDevices } from '../org/access';
import { orderNumber } from './orders.service';
import { orders } from './orders.table';
import { creditPurchases } from './payments.table';

/*
 * The company's side of message credit (issue 17 item 1): the balance and the ledger that
 * modules/delivery writes when it reserves, refunds and grants credit. Nothing here changes a
 * balance; the spending rules stay in delivery/credits.service.ts.
 */

/** `/api/credit/balance`: one balance per company, whatever the caller's department. */
export async function getCreditBalance(db: Queryable, companyId: number): Promise<CreditBalanceView> {
  return { balance: await creditBalance(db, companyId), currency: 'credit' };
}

/** The filters of the list and the export, as the statement's condition. */
export interface LedgerFilters {
  kind?: CreditLedgerKind;
  channel?: AlarmChannel;
  startTime?: number;
  endTime?: number;
}

/**
 * The ledger rows the caller may see. Someone who sees the whole company sees every row, so the
 * rows add up to the balance (a debit of a device removed since stays). A department member sees
 * the grants and the debits and refunds of alarms of devices they may see: the row names the
 * device, and the statistics page draws the same line (its credits chart).
 */
export function visibleLedger(auth: Auth, filters: LedgerFilters): SQL {
  const company = eq(creditLedger.companyId, auth.companyId ?? -1);
  const inScope =
    auth.scopePath === null
      ? undefined
      : sql`(${creditLedger.notificationId} is null or exists (
          select 1 from ${alarmNotifications} n join ${alarmRecords} a on a.id = n.alarm_id
          where n.id = ${creditLedger.notificationId} and a.device_id in ${deviceIdsWhere(visibleDevices(auth))}))`;
  return and(
    company,
    inScope,
    whenGiven(filters.kind, 'text', (v) => sql`${creditLedger.kind} = ${v}`),
    whenGiven(filters.channel, 'text', (v) => sql`${creditLedger.channel} = ${v}`),
    whenGiven(filters.startTime, 'float8', (v) => sql`${creditLedger.createdAt} >= ${epochParam(v)}`),
    whenGiven(filters.endTime, 'float8', (v) => sql`${creditLedger.createdAt} < ${epochParam(v)}`),
  )!;
}

/** Newest first; the id breaks ties so that pages keep one order. */
export const LEDGER_ORDER = sql`${creditLedger.createdAt} desc, ${creditLedger.id} desc`;

/**
 * One ledger row as a JSON value: the row and the alarm its message paid for (through the
 * notification, since the ledger keeps the notification's id, not the alarm's), read for the
 * answered rows only.
 */
export const LEDGER_ROW = sql`json_build_object(
  'id', ${creditLedger.id},
  'kind', ${creditLedger.kind},
  'amount', ${creditLedger.amount},
  'channel', ${creditLedger.channel},
  'note', ${creditLedger.note},
  'createdAt', floor(extract(epoch from ${creditLedger.createdAt}) * 1000)::bigint,
  'alarm', (select json_build_object('id', a.id, 'alarmType', a.alarm_type, 'deviceId', d.id,
                                     'deviceName', d.name, 'deviceSerial', d.serial)
            from ${alarmNotifications} n
            join ${alarmRecords} a on a.id = n.alarm_id
            join ${devices} d on d.id = a.device_id
            where n.id = ${creditLedger.notificationId}),
  'order', (select json_build_object('id', o.id, 'createdAt', floor(extract(epoch from o.created_at) * 1000)::bigint)
            from ${creditPurchases} cp join ${orders} o on o.id = cp.order_id
            where cp.ledger_id = ${creditLedger.id})
)`;

export interface LedgerJson {
  id: number | string;
  kind: CreditLedgerKind;
  amount: number;
  channel: string | null;
  note: string;
  createdAt: number | string;
  alarm: {
    id: number | string;
    alarmType: string;
    deviceId: number | string;
    deviceName: string;
    deviceSerial: string;
  } | null;
  /** The credit top-up order a grant came from (payments-settle.ts). */
  order?: { id: number | string; createdAt: number | string } | null;
}

export function presentLedgerRow(raw: LedgerJson): CreditLedgerRowView {
  return {
    id: idToWire(BigInt(raw.id)),
    kind: raw.kind,
    amount: Number(raw.amount),
    channel: (raw.channel as AlarmChannel | null) ?? null,
    alarm: raw.alarm
      ? {
          id: idToWire(BigInt(raw.alarm.id)),
          alarmType: raw.alarm.alarmType as AlarmType,
          deviceId: idToWire(BigInt(raw.alarm.deviceId)),
          deviceName: raw.alarm.deviceName,
          deviceSerial: raw.alarm.deviceSerial,
        }
      : null,
    // A paid credit top-up order names itself; other grants carry their reason only.
    order: raw.order
      ? {
          id: idToWire(BigInt(raw.order.id)),
          orderNo: orderNumber({
            id: Number(raw.order.id),
            createdAt: new Date(Number(raw.order.createdAt)),
          }),
        }
      : null,
    reason: raw.note,
    createTime: Number(raw.createdAt),
  };
}

/** `/api/credit/pageLedger`: one statement (db/page-query.ts). */
export async function pageLedger(
  db: Queryable,
  auth: Auth,
  query: PageCreditLedgerRequest,
): Promise<Page<CreditLedgerRowView>> {
  return pageOf(
    db,
    { row: LEDGER_ROW, from: creditLedger, where: visibleLedger(auth, query), orderBy: LEDGER_ORDER },
    query,
    presentLedgerRow,
  );
}
