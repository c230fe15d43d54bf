import type { OrderView } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';
import { invoiceApplications, invoiceOrders } from './invoices.table';
import { lateFeeOn, utcDay } from './late-fee';
import { toOrderView } from './orders.service';
import { type OrderLine, orders } from './orders.table';
import { creditPurchases, orderPayments } from './payments.table';
import { centsToRm } from './prices';

/*
 * One order as the serviceList and the operator's order list show it: the order, how it is paid,
 * its credits, the status of its live invoice application and its late fee. Built as one JSON value
 * per row (db/page-query.ts), so a page stays one statement.
 */

const ms = (column: unknown) => sql`floor(extract(epoch from ${column}) * 1000)::bigint`;

export const ORDER_ROW = sql`json_build_object(
  'id', ${orders.id}, 'companyId', ${orders.companyId}, 'kind', ${orders.kind}, 'status', ${orders.status},
  'months', ${orders.months}, 'lines', ${orders.lines}, 'amountCents', ${orders.amountCents},
  'createdBy', ${orders.createdBy},
  'createdAt', ${ms(orders.createdAt)}, 'decidedAt', ${ms(orders.decidedAt)},
  'periodStart', ${ms(orders.periodStart)}, 'periodEnd', ${ms(orders.periodEnd)},
  'createdByName', (select u.name from ${users} u where u.id = ${orders.createdBy}),
  'companyName', (select c.name from ${companies} c where c.id = ${orders.companyId}),
  'payment', (select json_build_object('method', p.method, 'proofImage', p.proof_image,
                'dueDate', p.due_date, 'rejectReason', p.reject_reason, 'lateFeeCents', p.late_fee_cents)
              from ${orderPayments} p where p.order_id = ${orders.id}),
  'credits', (select cp.credits from ${creditPurchases} cp where cp.order_id = ${orders.id}),
  'invoiceStatus', coalesce((select a.status from ${invoiceOrders} io
                             join ${invoiceApplications} a on a.id = io.invoice_id
                             where io.order_id = ${orders.id} and io.live limit 1), 0)
)`;

export interface OrderRowJson {
  id: number | string;
  companyId: number | string;
  kind: string;
  status: number;
  months: number;
  lines: OrderLine[];
  amountCents: number;
  createdBy: number | string | null;
  createdAt: number | string;
  decidedAt: number | string | null;
  periodStart: number | string | null;
  periodEnd: number | string | null;
  createdByName: string | null;
  companyName: string | null;
  payment: {
    method: string | null;
    proofImage: string | null;
    dueDate: string | null;
    rejectReason: string | null;
    lateFeeCents: number | string;
  } | null;
  credits: number | null;
  invoiceStatus: number;
}

const date = (v: number | string | null) => (v === null ? null : new Date(Number(v)));

/** The order's view; `now` prices the late fee of an unpaid order past its due date. */
export function presentOrderRow(raw: OrderRowJson, now = Date.now()): OrderView {
  const view = toOrderView(
    {
      id: Number(raw.id),
      companyId: Number(raw.companyId),
      kind: raw.kind,
      status: raw.status,
      months: raw.months,
      lines: raw.lines,
      amountCents: raw.amountCents,
      createdBy: raw.createdBy === null ? null : Number(raw.createdBy),
      createdAt: new Date(Number(raw.createdAt)),
      decidedAt: date(raw.decidedAt),
      periodStart: date(raw.periodStart),
      periodEnd: date(raw.periodEnd),
    },
    raw.createdByName ?? '',
  );
  const dueDate = raw.payment?.dueDate ?? null;
  // Late fees run on what is still unpaid: a pending order past its due date (late-fee.ts). A paid
  // order shows the late fee paid with it (fixed when the company paid, payments.service.ts).
  const lateFee =
    raw.status === 1
      ? dueDate
        ? Number(lateFeeOn(raw.amountCents, dueDate, utcDay(now)).lateFeeCents)
        : 0
      : Number(raw.payment?.lateFeeCents ?? 0);
  return {
    ...view,
    paymentMethod: (raw.payment?.method as OrderView['paymentMethod'] | null) ?? 'approval',
    invoiceStatus: raw.invoiceStatus,
    proofImage: raw.payment?.proofImage ?? null,
    credits: raw.credits,
    dueDate,
    lateFee: centsToRm(lateFee),
    rejectReason: raw.payment?.rejectReason ?? null,
  };
}
