import type { InvoiceStatus, InvoiceType, InvoiceView, OperatorInvoiceView } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { idToWire } from '../../lib/ids';
import { companies } from '../companies/companies.table';
import { departments } from '../org/org.table';
import { users } from '../users/users.table';
import { invoiceApplications, invoiceOrders } from './invoices.table';
import { orderNumber } from './orders.service';
import { orders } from './orders.table';
import { orderPayments } from './payments.table';
import { centsToRm } from './prices';

const a = invoiceApplications;
const ms = (column: unknown) => sql`floor(extract(epoch from ${column}) * 1000)::bigint`;

/** One application as a JSON value with its orders, names and company (db/page-query.ts). */
export const INVOICE_ROW = sql`json_build_object(
  'id', ${a.id}, 'companyId', ${a.companyId}, 'status', ${a.status}, 'type', ${a.type}, 'title', ${a.title},
  'amountCents', ${a.amountCents}, 'taxpayerId', ${a.taxpayerId}, 'bank', ${a.bank}, 'account', ${a.account},
  'companyAddress', ${a.companyAddress}, 'companyPhone', ${a.companyPhone},
  'mailingAddress', ${a.mailingAddress}, 'postcode', ${a.postcode}, 'recipient', ${a.recipient},
  'contact', ${a.contact}, 'email', ${a.email}, 'proofImage', ${a.proofImage},
  'rejectReason', ${a.rejectReason}, 'pdfFile', ${a.pdfFile},
  'createdAt', ${ms(a.createdAt)}, 'decidedAt', ${ms(a.decidedAt)},
  'applicantName', (select u.name from ${users} u where u.id = ${a.createdBy}),
  'departmentName', (select d.name from ${departments} d where d.id = ${a.departmentId}),
  'companyName', (select c.name from ${companies} c where c.id = ${a.companyId}),
  'orders', (select coalesce(json_agg(json_build_object('id', o.id, 'kind', o.kind,
               'amountCents', o.amount_cents, 'createdAt', floor(extract(epoch from o.created_at) * 1000)::bigint,
               'lateFeeCents', coalesce((select p.late_fee_cents from ${orderPayments} p where p.order_id = o.id), 0))
               order by o.id), '[]'::json)
             from ${invoiceOrders} io join ${orders} o on o.id = io.order_id where io.invoice_id = ${a.id})
)`;

export interface InvoiceRowJson {
  id: number | string;
  companyId: number | string;
  status: number;
  type: string;
  title: string;
  amountCents: number;
  taxpayerId: string;
  bank: string;
  account: string;
  companyAddress: string;
  companyPhone: string;
  mailingAddress: string;
  postcode: string;
  recipient: string;
  contact: string;
  email: string;
  proofImage: string | null;
  rejectReason: string | null;
  pdfFile: string | null;
  createdAt: number | string;
  decidedAt: number | string | null;
  applicantName: string | null;
  departmentName: string | null;
  companyName: string | null;
  orders: {
    id: number | string;
    kind: string;
    amountCents: number;
    createdAt: number | string;
    lateFeeCents: number | string;
  }[];
}

export function presentInvoice(raw: InvoiceRowJson): InvoiceView {
  return {
    id: idToWire(BigInt(raw.id)),
    status: raw.status as InvoiceStatus,
    type: raw.type as InvoiceType,
    title: raw.title,
    amount: centsToRm(raw.amountCents),
    currency: 'RM',
    taxpayerId: raw.taxpayerId,
    bank: raw.bank,
    account: raw.account,
    companyAddress: raw.companyAddress,
    companyPhone: raw.companyPhone,
    mailingAddress: raw.mailingAddress,
    postcode: raw.postcode,
    recipient: raw.recipient,
    contact: raw.contact,
    email: raw.email,
    proofImage: raw.proofImage,
    rejectReason: raw.rejectReason,
    hasPdf: !!raw.pdfFile,
    applicantName: raw.applicantName ?? '',
    departmentName: raw.departmentName ?? '',
    createTime: Number(raw.createdAt),
    decideTime: raw.decidedAt === null ? null : Number(raw.decidedAt),
    orders: raw.orders.map((o) => ({
      id: idToWire(BigInt(o.id)),
      orderNo: orderNumber({ id: Number(o.id), createdAt: new Date(Number(o.createdAt)) }),
      kind: o.kind,
      amount: centsToRm(o.amountCents),
      lateFee: centsToRm(Number(o.lateFeeCents)),
    })),
  };
}

export function presentOperatorInvoice(raw: InvoiceRowJson): OperatorInvoiceView {
  return {
    ...presentInvoice(raw),
    companyId: idToWire(BigInt(raw.companyId)),
    companyName: raw.companyName ?? '',
    pdfFile: raw.pdfFile,
  };
}
