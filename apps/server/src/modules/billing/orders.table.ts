import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';

/** One device of an order, priced when the order was placed (prices may change later). */
export interface OrderLine {
  deviceId: number;
  serial: string;
  name: string;
  version: string;
  unitPriceCents: number;
  amountCents: number;
}

/**
 * A top-up order (spec sections 3-4): a renewal of device service for whole months, the
 * recovery of a past period's data, or message credits (`credits`, payments.table.ts). The
 * platform operator approves or rejects it (operator console or `npm run admin -- orders ...`),
 * or the online payment's webhook approves it (docs/decisions.md, "Payments and invoices").
 */
export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** renewal | recovery | credits */
    kind: text('kind').notNull(),
    lines: jsonb('lines').$type<OrderLine[]>().notNull(),
    /** Renewal: months bought; recovery: 30-day months charged (part months whole). */
    months: integer('months').notNull(),
    /** Recovery only: the period whose data is recovered. */
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** In sen (RM cents), so sums are exact. */
    amountCents: integer('amount_cents').notNull(),
    /** OrderStatus: 1 pending approval, 2 approved, 3 rejected, 4 cancelled. */
    status: smallint('status').notNull().default(1),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('orders_company_created_idx').on(t.companyId, t.createdAt)],
);

/**
 * Which devices each order names, one row per (order, device), written with the order. `lines`
 * stays the priced record; this table lets "the orders of device X" use an index instead of
 * reading every order's JSON (hidden readings ask it for each history and export).
 */
export const orderDevices = pgTable(
  'order_devices',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** No foreign key: an order keeps naming a device that was removed later. */
    deviceId: bigint('device_id', { mode: 'number' }).notNull(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.deviceId] }), index('order_devices_device_idx').on(t.deviceId)],
);
