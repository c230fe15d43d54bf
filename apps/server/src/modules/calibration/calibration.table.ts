import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { equipment } from '../equipment/equipment.table';
import { users } from '../users/users.table';

/**
 * Calibration records (spec section 3 "Records") of a monitoring device or of a cold-chain
 * equipment: exactly one of the two ids is set, so both share one code path and one 30-day
 * reminder (docs/decisions.md).
 */
export const deviceCalibrations = pgTable(
  'device_calibrations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' }).references(() => devices.id, { onDelete: 'cascade' }),
    equipmentId: bigint('equipment_id', { mode: 'number' }).references(() => equipment.id, {
      onDelete: 'cascade',
    }),
    calibratedAt: timestamp('calibrated_at', { withTimezone: true }).notNull(),
    /** Always after `calibrated_at`: the request schema says so by field, the check guards the data. */
    nextDueAt: timestamp('next_due_at', { withTimezone: true }).notNull(),
    institution: text('institution').notNull(),
    /**
     * The stored name of the certificate PDF (`<32 hex>.pdf` under the upload directory). Uploads
     * have no table of their own: the random stored name is the file's id.
     */
    certificateFile: text('certificate_file'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('device_calibrations_device_idx').on(t.deviceId, t.calibratedAt),
    index('device_calibrations_equipment_idx').on(t.equipmentId, t.calibratedAt),
    check('device_calibrations_one_subject', sql`(${t.deviceId} is null) <> (${t.equipmentId} is null)`),
    check('device_calibrations_due_after_calibration', sql`${t.nextDueAt} > ${t.calibratedAt}`),
  ],
);
