import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { users } from '../users/users.table';

/**
 * A company's push addresses (`customizedPushDevice`). The secret signs every delivery with HMAC,
 * so it is kept encrypted (lib/secret-box.ts) and answered only when the address is created.
 */
export const pushUrls = pgTable(
  'push_urls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    /** PushUrlState: 1 pending, 2 enabled, 3 stopped. */
    state: smallint('state').notNull().default(1),
    secretSealed: text('secret_sealed').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The first failure since the last success; a day of failures stops the address. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true }),
    /**
     * Made for a platform docking (modules/platform-docking), not by the company: left out of the
     * company's push pages and calls, and removed when the docking stops.
     */
    dockingOwned: boolean('docking_owned').notNull().default(false),
    /** How each delivery is shaped and signed (push-adapters.ts): 'push' or a docking protocol. */
    adapter: text('adapter').notNull().default('push'),
    /** The adapter's key id header, for platforms that tell senders apart by it. */
    keyId: text('key_id'),
  },
  (t) => [index('push_urls_company_idx').on(t.companyId)],
);

/** The devices whose data goes to an address; cleared when the address is stopped. */
export const pushBindings = pgTable(
  'push_bindings',
  {
    urlId: bigint('url_id', { mode: 'number' })
      .notNull()
      .references(() => pushUrls.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.urlId, t.deviceId] }), index('push_bindings_device_idx').on(t.deviceId)],
);

/**
 * What happened and is not yet routed to addresses: written by triggers in the transaction that
 * stored it (see the migration). Alarms raised or resolved and device states: a row each, only
 * for devices an enabled address subscribes to. Readings: a row per ingest statement (company and
 * device 0) while any enabled address subscribes to readings; the worker picks out the devices. The worker turns rows into
 * deliveries and deletes them in one transaction, so nothing is lost or routed twice.
 */
export const pushOutbox = pgTable('push_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  companyId: bigint('company_id', { mode: 'number' }).notNull(),
  deviceId: bigint('device_id', { mode: 'number' }).notNull(),
  event: text('event').notNull(),
  /**
   * Alarm events: {alarmId, resolveState}; deviceState: {state, previousState, ts}. Null for
   * readings, which the trigger stores in the three arrays below (rows queued before migration
   * 0042 have them here as {s: sensor ids, t: epoch seconds, v: values}).
   */
  payload: jsonb('payload'),
  /**
   * A readings row's sensors, times and values, in one order: the statement's rows aggregated in
   * their own types, where building JSON (each time to epoch seconds, each value to numeric) cost
   * the ingest statement twice as much. The router builds the JSON, off the ingest path.
   */
  readingSensors: bigint('reading_sensors', { mode: 'number' }).array(),
  readingTs: timestamp('reading_ts', { withTimezone: true }).array(),
  readingValues: real('reading_values').array(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Deliveries still to send (the worker's claim reads only these). */
const sqlPending = sql`status in ('queued', 'sending', 'retrying')`;

/**
 * One POST to one address: its body is fixed when it is queued, so a retry sends the same bytes
 * with the same deliveryId. An address's deliveries go strictly in id order (so in order per
 * device): the next is not sent before the one ahead of it succeeded.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    urlId: bigint('url_id', { mode: 'number' })
      .notNull()
      .references(() => pushUrls.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    body: text('body').notNull(),
    items: integer('items').notNull(),
    /** queued, sending, delivered, retrying, failed (a test delivery that was not answered 2xx). */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    httpStatus: smallint('http_status'),
    durationMs: integer('duration_ms'),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('push_deliveries_url_idx').on(t.urlId, t.id),
    // The claim's probe: an address's first unsent delivery (push-worker.ts).
    index('push_deliveries_url_pending_idx').on(t.urlId, t.id).where(sqlPending),
  ],
);
