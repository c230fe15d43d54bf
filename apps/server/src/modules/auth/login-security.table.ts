import { bigint, bigserial, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table';

/**
 * Where a person has logged in from before: `kind` 'device' (the console's deviceId, or a hash of
 * the user agent) or 'ip'. A password login from a place not in this list needs a code as well.
 */
export const knownLoginPlaces = pgTable(
  'known_login_places',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** The IP address, or the SHA-256 of the device id / user agent. */
    value: text('value').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('known_login_places_key').on(t.userId, t.kind, t.value)],
);

/**
 * A QR login ticket: the browser shows it, a signed-in phone confirms it, and the browser's next
 * poll receives a new session exactly once. Only the ticket's hash is kept.
 */
export const qrLoginTickets = pgTable(
  'qr_login_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketHash: text('ticket_hash').notNull(),
    /** waiting | scanned | confirmed | consumed */
    state: text('state').notNull().default('waiting'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    /** IP of the browser that asked for the ticket; the session it gets is opened for that address. */
    ip: text('ip').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('qr_login_tickets_hash_key').on(t.ticketHash),
    index('qr_login_tickets_expires_idx').on(t.expiresAt),
  ],
);

/**
 * An address code: a one-time login code a signed-in user issues for a kiosk or data-screen link
 * (`/login?addressCode=...`); `/api/doLoginCode` exchanges it for a session of that user.
 */
export const addressLoginCodes = pgTable(
  'address_login_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    codeHash: text('code_hash').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: bigint('company_id', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('address_login_codes_hash_key').on(t.codeHash)],
);

/**
 * Warnings sent before an inactive account is cancelled (spec section 9: 12 months without
 * login). A warning counts only if it is newer than the person's last login.
 */
export const inactivityWarnings = pgTable('inactivity_warnings', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  warnedAt: timestamp('warned_at', { withTimezone: true }).notNull(),
  /** Set when the sweep disabled the account. */
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
});
