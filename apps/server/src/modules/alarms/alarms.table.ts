import type { AlarmChannel, AlarmEndReason, TimePeriod } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { users } from '../users/users.table';
import type { EngineState } from './alarm-engine';

/** Who an escalation level reaches, as stored (user ids as numbers, like `notifier_ids`). */
export interface StoredEscalationLevel {
  level: number;
  notifierIds: number[];
  channels: AlarmChannel[];
}

/**
 * An alarm rule on a device (every sensor of it, and its events) or on one sensor. `device_id`
 * is stored for both carriers so the engine finds every rule of a reading with one indexed query.
 */
export const alarmSettings = pgTable(
  'alarm_settings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    carrier: text('carrier').$type<'sensor' | 'device'>().notNull(),
    targetId: bigint('target_id', { mode: 'number' }).notNull(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: bigint('sensor_id', { mode: 'number' }).references(() => sensors.id, { onDelete: 'cascade' }),
    level: smallint('level').notNull(),
    alarmType: text('alarm_type').notNull(),
    min: doublePrecision('min'),
    max: doublePrecision('max'),
    preMin: doublePrecision('pre_min'),
    preMax: doublePrecision('pre_max'),
    delaySeconds: integer('delay_seconds').notNull().default(0),
    hysteresis: doublePrecision('hysteresis').notNull().default(0),
    repeat: smallint('repeat').notNull(),
    repeatIntervalSeconds: integer('repeat_interval_seconds').notNull().default(600),
    /** 0 = never escalate. */
    escalateAfterSeconds: integer('escalate_after_seconds').notNull().default(0),
    allDay: boolean('all_day').notNull().default(true),
    periods: jsonb('periods').$type<TimePeriod[]>().notNull().default([]),
    /** 1-7 = Monday-Sunday (spec section 9). */
    weekdays: smallint('weekdays').array().notNull().default([1, 2, 3, 4, 5, 6, 7]),
    /** Time slots are read in this zone; companies have no zone of their own yet. */
    timeZone: text('time_zone').notNull().default('UTC'),
    channels: text('channels').array().notNull().default([]),
    notifierIds: bigint('notifier_ids', { mode: 'number' }).array().notNull().default([]),
    /**
     * Who escalation reaches at levels 2 and 3 (call tree); a level not named here notifies the
     * setting's own notifiers and channels, as before levels had people of their own.
     */
    escalation: jsonb('escalation').$type<StoredEscalationLevel[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alarm_settings_company_device_idx').on(t.companyId, t.deviceId)],
);

/**
 * The engine's state per (setting, sensor); sensor 0 holds device-level state (offline). Kept in
 * the database so that a restart resumes an excursion instead of alarming again.
 */
export const alarmState = pgTable(
  'alarm_state',
  {
    settingId: bigint('setting_id', { mode: 'number' })
      .notNull()
      .references(() => alarmSettings.id, { onDelete: 'cascade' }),
    sensorId: bigint('sensor_id', { mode: 'number' }).notNull(),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    deviceId: bigint('device_id', { mode: 'number' }).notNull(),
    state: jsonb('state').$type<EngineState>().notNull(),
    /** Denormalised from `state` so "is any alarm of this device active" is one indexed query. */
    active: boolean('active').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.settingId, t.sensorId] }),
    index('alarm_state_company_device_idx').on(t.companyId, t.deviceId),
  ],
);

/** One alarm: an excursion (or event) of one setting; repeats raise `count`, not new rows. */
export const alarmRecords = pgTable(
  'alarm_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: bigint('sensor_id', { mode: 'number' }),
    settingId: bigint('setting_id', { mode: 'number' }).references(() => alarmSettings.id, {
      onDelete: 'set null',
    }),
    alarmType: text('alarm_type').notNull(),
    level: smallint('level').notNull(),
    alarmTime: timestamp('alarm_time', { withTimezone: true }).notNull(),
    /** When the condition began (reading time); with the setting and sensor it identifies the excursion. */
    excursionStart: timestamp('excursion_start', { withTimezone: true }).notNull(),
    /** `setting:sensor:type:excursionStart`: a back-fill or a retry can never alarm an excursion twice. */
    dedupeKey: text('dedupe_key').notNull(),
    content: jsonb('content').$type<{ cn: string; en: string }>().notNull(),
    count: integer('count').notNull().default(1),
    /** The latest reading of the excursion (the one that raised it, then every later one). */
    lastValue: doublePrecision('last_value'),
    /** The furthest reading from the safe range in the alarm's direction (highest above, lowest below). */
    peakValue: doublePrecision('peak_value'),
    /** Found in data that arrived late: seconds between the reading that raised it and its arrival; null when live. */
    lateBySeconds: integer('late_by_seconds'),
    /** ResolveState 1-5. */
    resolveState: smallint('resolve_state').notNull().default(1),
    resolverId: bigint('resolver_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    resolveTime: timestamp('resolve_time', { withTimezone: true }),
    resolveType: text('resolve_type'),
    cause: text('cause'),
    action: text('action'),
    /** When the excursion ended (value back in the safe range), null while it lasts. */
    endTime: timestamp('end_time', { withTimezone: true }),
    /**
     * Why it ended when not by its condition: `ruleDisabled`, `ruleDeleted`, `ruleEdited` or
     * `channelDisabled`, by
     * `endedBy`. Null when the value (or device) came back: only then is it "normalized".
     */
    endReason: text('end_reason').$type<AlarmEndReason>(),
    endedBy: bigint('ended_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alarm_records_dedupe_key').on(t.dedupeKey),
    index('alarm_records_company_time_idx').on(t.companyId, t.alarmTime),
    index('alarm_records_company_device_idx').on(t.companyId, t.deviceId),
    // Open excursions of a setting: every clear, power-on and return online ends them by setting,
    // which the company-wide indexes answered by reading all of the company's alarms.
    index('alarm_records_open_idx').on(t.settingId, t.sensorId).where(sql`${t.endTime} is null`),
    // Alarms still pending (resolve state 1): the home page counts them at every load, which read
    // the company's whole alarm history (docs/performance.md, "A large company's device list").
    index('alarm_records_pending_idx').on(t.companyId, t.deviceId).where(sql`${t.resolveState} = 1`),
  ],
);

/**
 * The notification outbox: one row per notifier x channel per notification. Delivery workers
 * (SMS, e-mail, ...) take pending rows later, so nothing on the hot path waits on a provider.
 */
export const alarmNotifications = pgTable(
  'alarm_notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarmRecords.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    /** The notification round (1 = the alarm, then repeats); an escalation notifies within its round. */
    sequence: integer('sequence').notNull().default(1),
    level: smallint('level').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('alarm_notifications_status_idx').on(t.status, t.createdAt),
    index('alarm_notifications_alarm_idx').on(t.alarmId),
  ],
);

/**
 * The next reminder and escalation of an open alarm, due by the server's clock (a reminder is a
 * promise to a person, so it is paced by the time that person lives in, not by reading times).
 * One row per alarm that still has one to come; `alarm-follow-ups.ts` claims due rows with
 * `FOR UPDATE SKIP LOCKED` and drops rows of alarms that ended or were taken in hand.
 */
export const alarmFollowUps = pgTable(
  'alarm_follow_ups',
  {
    alarmId: bigint('alarm_id', { mode: 'number' })
      .primaryKey()
      .references(() => alarmRecords.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Null: no reminder left (max alarm count reached). */
    nextRepeatAt: timestamp('next_repeat_at', { withTimezone: true }),
    /** Null: no escalation left (level 3 reached, or none configured). */
    nextEscalateAt: timestamp('next_escalate_at', { withTimezone: true }),
  },
  (t) => [
    index('alarm_follow_ups_repeat_idx').on(t.nextRepeatAt),
    index('alarm_follow_ups_escalate_idx').on(t.nextEscalateAt),
  ],
);
