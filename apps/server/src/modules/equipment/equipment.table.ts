import type { ExcursionBudget, StoredAttribute } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { sensors } from '../devices/devices.table';
import { deviceGroups } from '../groups/groups.table';
import { departments } from '../org/org.table';
import { users } from '../users/users.table';

/**
 * An equipment type (spec section 3): its custom attributes live in one JSON column because they
 * are read and written as a whole with the type, and each has a stable id that equipment values
 * are keyed by (so renaming or reordering an attribute keeps the values).
 */
export const equipmentTypes = pgTable(
  'equipment_types',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    introImage: text('intro_image').notNull().default(''),
    attributes: jsonb('attributes').$type<StoredAttribute[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('equipment_types_company_code_key').on(t.companyId, t.code)],
);

/** A piece of cold-chain equipment (a fridge, freezer, cold room, truck). */
export const equipment = pgTable(
  'equipment',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    typeId: bigint('type_id', { mode: 'number' })
      .notNull()
      .references(() => equipmentTypes.id, { onDelete: 'restrict' }),
    /** The type's code followed by `serial_suffix`, fixed when saved: labels carry it. */
    serial: text('serial').notNull(),
    serialSuffix: text('serial_suffix').notNull(),
    name: text('name').notNull(),
    departmentId: bigint('department_id', { mode: 'number' }).references(() => departments.id, {
      onDelete: 'set null',
    }),
    groupId: bigint('group_id', { mode: 'number' }).references(() => deviceGroups.id, {
      onDelete: 'set null',
    }),
    address: text('address').notNull().default(''),
    region: text('region').notNull().default(''),
    remarks: text('remarks').notNull().default(''),
    /** 1 in use, 2 under service, 3 disposed (only by a scrap record, never undone), 4 standby. */
    useState: smallint('use_state').notNull().default(1),
    /** Values by attribute id. Never rewritten when the type changes (docs/API.md "Equipment"). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    excursion: jsonb('excursion').$type<ExcursionBudget>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('equipment_company_serial_key').on(t.companyId, t.serial),
    index('equipment_company_type_idx').on(t.companyId, t.typeId),
    check('equipment_use_state_range', sql`${t.useState} between 1 and 4`),
  ],
);

/**
 * Which equipment a sensor measures. The sensor is the key: a sensor belongs to at most one
 * equipment (spec section 3, the sensor's "associated equipment").
 */
export const equipmentSensors = pgTable(
  'equipment_sensors',
  {
    sensorId: bigint('sensor_id', { mode: 'number' })
      .primaryKey()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    equipmentId: bigint('equipment_id', { mode: 'number' })
      .notNull()
      .references(() => equipment.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
  },
  (t) => [index('equipment_sensors_equipment_idx').on(t.equipmentId)],
);

/**
 * Lifecycle records other than calibration (which stays in `device_calibrations`, one code path
 * for monitors and equipment): repair, maintenance, scrap, transfer, patrol. Each kind's own
 * fields are in `details`; `time` is the record's main time, by which the timeline is ordered.
 */
export const equipmentRecords = pgTable(
  'equipment_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    equipmentId: bigint('equipment_id', { mode: 'number' })
      .notNull()
      .references(() => equipment.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    /** Maintenance only: the window in which the equipment's sensors raise no alarm. */
    endTime: timestamp('end_time', { withTimezone: true }),
    planId: bigint('plan_id', { mode: 'number' }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('equipment_records_equipment_idx').on(t.equipmentId, t.time),
    // At most one scrap per equipment, whatever races: the irreversibility is in the data.
    uniqueIndex('equipment_records_one_scrap_key').on(t.equipmentId).where(sql`${t.kind} = 'scrap'`),
  ],
);

/** A patrol plan (spec section 5: interval over 6 hours) for one equipment or one group. */
export const patrolPlans = pgTable(
  'patrol_plans',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    equipmentId: bigint('equipment_id', { mode: 'number' }).references(() => equipment.id, {
      onDelete: 'cascade',
    }),
    groupId: bigint('group_id', { mode: 'number' }).references(() => deviceGroups.id, {
      onDelete: 'cascade',
    }),
    intervalMinutes: integer('interval_minutes').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('patrol_plans_company_idx').on(t.companyId),
    check('patrol_plans_one_target', sql`(${t.equipmentId} is null) <> (${t.groupId} is null)`),
    check('patrol_plans_interval_over_6h', sql`${t.intervalMinutes} > 360`),
  ],
);
