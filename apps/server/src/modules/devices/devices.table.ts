import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';

/** A monitor (data logger) bound to a company. Its serial comes from `device_inventory`. */
export const devices = pgTable(
  'devices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    serial: text('serial').notNull(),
    name: text('name').notNull(),
    model: text('model').notNull(),
    version: text('version').notNull(),
    departmentId: bigint('department_id', { mode: 'number' }),
    groupId: bigint('group_id', { mode: 'number' }),
    /** DeviceState 1-6; a device that has never reported is offline. */
    state: smallint('state').notNull().default(4),
    /** SHA-256 of the device key: the key itself is shown once and never stored. */
    keyHash: text('key_hash').notNull(),
    recordIntervalS: integer('record_interval_s').notNull().default(300),
    uploadIntervalS: integer('upload_interval_s').notNull().default(300),
    alarmVerifyIntervalS: integer('alarm_verify_interval_s').notNull().default(300),
    offlineJudgement: smallint('offline_judgement').notNull().default(3),
    hostAddress: text('host_address').notNull().default(''),
    subAddress: text('sub_address').notNull().default(''),
    remark: text('remark').notNull().default(''),
    region: text('region').notNull().default(''),
    address: text('address').notNull().default(''),
    lng: doublePrecision('lng'),
    lat: doublePrecision('lat'),
    battery: smallint('battery'),
    power: text('power'),
    mode: text('mode').notNull().default('normal'),
    expireTime: timestamp('expire_time', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_serial_key').on(t.serial),
    index('devices_company_state_idx').on(t.companyId, t.state),
    // The device list's order (pageDevices: name, then id): a page walks it and stops after its
    // rows instead of sorting every device of the company (19 000: 29 ms -> 14 ms a page on the
    // embedded database, docs/performance.md, "A large company's device list").
    index('devices_company_name_idx').on(t.companyId, t.name, t.id),
  ],
);

/** A channel of a monitor: what it measures, its range and its latest value. */
export const sensors = pgTable(
  'sensors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    channel: smallint('channel').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    unit: text('unit').notNull(),
    rangeMin: real('range_min').notNull(),
    rangeMax: real('range_max').notNull(),
    remark: text('remark').notNull().default(''),
    value: real('value'),
    updateTime: timestamp('update_time', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    uniqueIndex('sensors_device_channel_key').on(t.deviceId, t.channel),
    index('sensors_company_idx').on(t.companyId),
  ],
);

/** Events a device reports (power off/on, low battery, incoming call, ...). */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    event: text('event').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_events_dedupe_key').on(t.deviceId, t.ts, t.event)],
);
