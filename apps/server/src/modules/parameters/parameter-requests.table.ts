import type { DeviceParameters } from '@coldchain/contract';
import {
  bigint,
  bigserial,
  index,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { devices } from '../devices/devices.table';

/**
 * A parameter read or push sent to a device on `cc/v1/<serial>/down` (API.md), and where it got
 * to: ParameterState 1 reading, 2 read ok, 3 read failed, 4 sending, 5 sent, 6 send failed.
 */
export const parameterRequests = pgTable(
  'parameter_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** The id the device echoes in its ack. */
    requestId: text('request_id').notNull(),
    /** read | push */
    kind: text('kind').notNull(),
    state: smallint('state').notNull(),
    /** Pushed parameters, or those a read returned. */
    params: jsonb('params').$type<DeviceParameters>(),
    error: text('error').notNull().default(''),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('parameter_requests_request_id_key').on(t.requestId),
    index('parameter_requests_device_idx').on(t.deviceId, t.createdAt),
  ],
);
