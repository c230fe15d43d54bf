import type { DeliveryGoods } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { users } from '../users/users.table';
import { logisticsAddresses } from './addresses.table';

/** An address as the order keeps it: the delivery note must say where goods went even after an edit. */
export interface AddressCopy {
  name: string;
  contact: string;
  phone: string;
  region: string;
  address: string;
  lng: number | null;
  lat: number | null;
}

/**
 * How the receipt was signed: a member's signature password, a member signed in (their company
 * asks no signature), or a link receiver's typed name and drawn signature.
 */
export interface ReceiptSignature {
  method: 'password' | 'account' | 'drawn';
  meaning: 'shipmentReceipt';
  signedBy: string;
  signedAt: number;
  /** The drawn signature (PNG data URL); link receipts only. */
  image?: string;
}

/**
 * Delivery orders (issue 18 item 2). The sender company owns the row; the receiving company on the
 * platform (copied from the receiver address when the order is saved) may read it and receive it.
 */
export const logisticsDeliveries = pgTable(
  'logistics_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    orderNo: text('order_no').notNull(),
    /** 1-6, contract DeliveryState. */
    state: smallint('state').notNull().default(1),
    senderAddressId: bigint('sender_address_id', { mode: 'number' })
      .notNull()
      .references(() => logisticsAddresses.id, { onDelete: 'restrict' }),
    receiverAddressId: bigint('receiver_address_id', { mode: 'number' })
      .notNull()
      .references(() => logisticsAddresses.id, { onDelete: 'restrict' }),
    sender: jsonb('sender').$type<AddressCopy>().notNull(),
    receiver: jsonb('receiver').$type<AddressCopy>().notNull(),
    /** The company on the platform that receives; null for a receiver outside it (link receipt). */
    receiverCompanyId: bigint('receiver_company_id', { mode: 'number' }).references(() => companies.id, {
      onDelete: 'set null',
    }),
    goods: jsonb('goods').$type<DeliveryGoods[]>().notNull(),
    tempMin: doublePrecision('temp_min').notNull(),
    tempMax: doublePrecision('temp_max').notNull(),
    humidityMin: doublePrecision('humidity_min'),
    humidityMax: doublePrecision('humidity_max'),
    carrier: text('carrier').notNull().default(''),
    vehicle: text('vehicle').notNull().default(''),
    plannedDeparture: timestamp('planned_departure', { withTimezone: true }),
    plannedArrival: timestamp('planned_arrival', { withTimezone: true }),
    departedAt: timestamp('departed_at', { withTimezone: true }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    remarks: text('remarks').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    receivedBy: bigint('received_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    receiptRemarks: text('receipt_remarks').notNull().default(''),
    receiptPhoto: text('receipt_photo').notNull().default(''),
    receiptSignature: jsonb('receipt_signature').$type<ReceiptSignature>(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('logistics_deliveries_order_no_idx').on(t.companyId, t.orderNo),
    index('logistics_deliveries_company_idx').on(t.companyId, t.createdAt),
    index('logistics_deliveries_receiver_idx').on(t.receiverCompanyId, t.createdAt),
    index('logistics_deliveries_sender_address_idx').on(t.senderAddressId),
    index('logistics_deliveries_receiver_address_idx').on(t.receiverAddressId),
  ],
);

/**
 * The monitors of an order. `active` is true while the order is created or in transit; the
 * partial unique index makes "a monitor is on at most one active shipment" the database's rule,
 * so two dispatchers saving at once cannot both win. `alarm_setting_ids` are the shipment's own
 * alarm settings on the monitor's sensors, made at departure and deleted at arrival.
 */
export const logisticsDeliveryDevices = pgTable(
  'logistics_delivery_devices',
  {
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => logisticsDeliveries.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    active: boolean('active').notNull().default(true),
    alarmSettingIds: bigint('alarm_setting_ids', { mode: 'number' }).array().notNull().default([]),
  },
  (t) => [
    primaryKey({ columns: [t.deliveryId, t.deviceId] }),
    uniqueIndex('logistics_delivery_devices_active_idx').on(t.deviceId).where(sql`active`),
  ],
);

/** Receipt links (hash only): the link's token is its credential until `expires_at`. */
export const logisticsReceiptLinks = pgTable(
  'logistics_receipt_links',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => logisticsDeliveries.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    tokenHash: text('token_hash').notNull(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('logistics_receipt_links_token_idx').on(t.tokenHash),
    index('logistics_receipt_links_delivery_idx').on(t.deliveryId),
  ],
);
