import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { orders } from './orders.table';

/** An invoice application over paid orders (spec sections 3 and 9; statuses in contract invoices.ts). */
export const invoiceApplications = pgTable(
  'invoice_applications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdBy: bigint('created_by', { mode: 'number' }),
    /** The applicant's department then: the department view (orgApplicationForInvoice) lists by it. */
    departmentId: bigint('department_id', { mode: 'number' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    /** The orders' sum in sen, fixed when applying. */
    amountCents: integer('amount_cents').notNull(),
    taxpayerId: text('taxpayer_id').notNull().default(''),
    bank: text('bank').notNull().default(''),
    account: text('account').notNull().default(''),
    companyAddress: text('company_address').notNull().default(''),
    companyPhone: text('company_phone').notNull().default(''),
    mailingAddress: text('mailing_address').notNull().default(''),
    postcode: text('postcode').notNull().default(''),
    recipient: text('recipient').notNull().default(''),
    contact: text('contact').notNull().default(''),
    email: text('email').notNull().default(''),
    proofImage: text('proof_image'),
    status: smallint('status').notNull().default(1),
    rejectReason: text('reject_reason'),
    pdfFile: text('pdf_file'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('invoice_applications_company_idx').on(t.companyId, t.createdAt)],
);

/**
 * The orders of an application. `live` is true while the application is in progress or issued;
 * the partial unique index puts an order on at most one live application, even under races.
 */
export const invoiceOrders = pgTable(
  'invoice_orders',
  {
    invoiceId: bigint('invoice_id', { mode: 'number' })
      .notNull()
      .references(() => invoiceApplications.id, { onDelete: 'cascade' }),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.orderId] }),
    uniqueIndex('invoice_orders_live_order_key').on(t.orderId).where(sql`${t.live}`),
  ],
);
