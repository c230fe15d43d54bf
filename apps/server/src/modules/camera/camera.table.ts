import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { alarmRecords } from '../alarms/alarms.table';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { equipment } from '../equipment/equipment.table';
import { departments } from '../org/org.table';
import { users } from '../users/users.table';

/**
 * A company's account on a video platform (`platformAccount`). The app key and secret are sealed
 * with the installation's secret box (lib/secret-box.ts) and never answered; the access token the
 * platform hands out is sealed too and kept until shortly before it expires.
 */
export const cameraPlatformAccounts = pgTable(
  'camera_platform_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** CameraPlatform: 'ezviz' | 'direct' (camera-platforms.ts). */
    platform: text('platform').notNull(),
    appKeySealed: text('app_key_sealed'),
    /** `ab****yz`: what the pages show of the app key. */
    appKeyMasked: text('app_key_masked').notNull().default(''),
    appSecretSealed: text('app_secret_sealed'),
    tokenSealed: text('token_sealed'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('camera_platform_accounts_company_idx').on(t.companyId, t.name)],
);

/** A camera (`camera`): in a department, as monitors are, so department scope applies. */
export const cameras = pgTable(
  'cameras',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: bigint('department_id', { mode: 'number' }).references(() => departments.id, {
      onDelete: 'set null',
    }),
    platformAccountId: bigint('platform_account_id', { mode: 'number' })
      .notNull()
      .references(() => cameraPlatformAccounts.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    serial: text('serial').notNull(),
    type: text('type').notNull().default(''),
    channel: integer('channel').notNull().default(1),
    /** The direct platform's HLS address; '' for platforms that hand one out. */
    streamUrl: text('stream_url').notNull().default(''),
    online: boolean('online'),
    onlineCheckedAt: timestamp('online_checked_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cameras_company_idx').on(t.companyId, t.name),
    uniqueIndex('cameras_account_serial_channel').on(t.platformAccountId, t.serial, t.channel),
  ],
);

/** Equipment a camera watches: an alarm on a sensor of that equipment gets the camera's picture. */
export const cameraEquipment = pgTable(
  'camera_equipment',
  {
    cameraId: bigint('camera_id', { mode: 'number' })
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    equipmentId: bigint('equipment_id', { mode: 'number' })
      .notNull()
      .references(() => equipment.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.cameraId, t.equipmentId] }),
    index('camera_equipment_equipment_idx').on(t.equipmentId),
  ],
);

/** Monitors a camera watches: any alarm of the monitor gets the camera's picture. */
export const cameraDevices = pgTable(
  'camera_devices',
  {
    cameraId: bigint('camera_id', { mode: 'number' })
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.cameraId, t.deviceId] }),
    index('camera_devices_device_idx').on(t.deviceId),
  ],
);

/**
 * The picture a watching camera took when an alarm started (issue 19 item 4). Taken after the
 * alarm committed, so a failing camera leaves `failed` and its reason here, never a late alarm.
 * The image is an upload file (`/files/<name>.jpg`, modules/files), named from the alarm and camera.
 */
export const alarmSnapshots = pgTable(
  'camera_alarm_snapshots',
  {
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarmRecords.id, { onDelete: 'cascade' }),
    cameraId: bigint('camera_id', { mode: 'number' })
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    /** SnapshotState: pending, ok, failed. */
    state: text('state').notNull().default('pending'),
    imageUrl: text('image_url'),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    takenAt: timestamp('taken_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.alarmId, t.cameraId] }),
    index('camera_alarm_snapshots_state_idx').on(t.state),
  ],
);

/** The camera wall of a user in a company (`/cameraScreen`), remembered between visits. */
export const cameraScreens = pgTable(
  'camera_screens',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    size: integer('size').notNull().default(4),
    cameraIds: jsonb('camera_ids').$type<number[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.companyId] })],
);
