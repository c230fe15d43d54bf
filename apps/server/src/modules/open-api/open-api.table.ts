import {
  bigint,
  bigserial,
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
import { devices } from '../devices/devices.table';
import { users } from '../users/users.table';

/**
 * A company's open-API keys (`OpenApi`). The secret signs requests with HMAC, so it is kept
 * encrypted (lib/secret-box.ts), never hashed, and never answered after creation.
 */
export const openApiKeys = pgTable(
  'open_api_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    appKey: text('app_key').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('open_api_keys_app_key').on(t.appKey),
    index('open_api_keys_company_idx').on(t.companyId),
  ],
);

/** The devices a key may read (`OpenDevice`); nothing else of the company is visible to it. */
export const openApiKeyDevices = pgTable(
  'open_api_key_devices',
  {
    keyId: bigint('key_id', { mode: 'number' })
      .notNull()
      .references(() => openApiKeys.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.deviceId] }),
    index('open_api_key_devices_device_idx').on(t.deviceId),
  ],
);

/**
 * Nonces seen in the last ten minutes, per key: the primary key makes a replay fail on insert,
 * across every instance on one database. Older rows are pruned as requests arrive.
 */
export const openApiNonces = pgTable(
  'open_api_nonces',
  {
    keyId: bigint('key_id', { mode: 'number' })
      .notNull()
      .references(() => openApiKeys.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.nonce] }), index('open_api_nonces_seen_idx').on(t.seenAt)],
);

/** Every call made with a key, signed or refused after the key was known: the key's usage log. */
export const openApiUsage = pgTable(
  'open_api_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: bigint('key_id', { mode: 'number' })
      .notNull()
      .references(() => openApiKeys.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    httpStatus: smallint('http_status').notNull(),
    msgCode: integer('msg_code').notNull(),
    durationMs: integer('duration_ms').notNull(),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('open_api_usage_key_idx').on(t.keyId, t.at)],
);
