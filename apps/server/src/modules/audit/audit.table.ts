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

/**
 * The operation log: one entry per change, written in the same transaction as the change.
 * Append-only (a trigger refuses UPDATE and DELETE) and hash-chained per company: `seq` counts
 * the company's entries without gaps and `hash` = SHA-256(prev_hash + the entry's canonical JSON),
 * so an edited entry breaks the chain from there on and a deleted one leaves a gap in `seq`.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_log_company_seq_key').on(t.companyId, t.seq),
    index('audit_log_company_time_idx').on(t.companyId, t.createdAt),
  ],
);

/**
 * Each company's chain head: its last entry's place (`seq`), that entry's hash and the hash before
 * it. Every append takes the company's head row and writes it in the statement that inserts the
 * entry (audit.service.ts): on PostgreSQL the row's lock orders concurrent appends to one chain,
 * and a statement that waited for it numbers and links its entry from the head's newest version,
 * so a change and its entry can be one statement with no transaction around it. The head also
 * remembers how long the chain is, so a deleted tail shows in its verification.
 */
export const auditHeads = pgTable('audit_heads', {
  companyId: bigint('company_id', { mode: 'number' }).primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull(),
});

/** Every login attempt (spec section 3 "Login log"). */
export const loginLog = pgTable(
  'login_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' }),
    companyId: bigint('company_id', { mode: 'number' }),
    account: text('account').notNull(),
    platform: smallint('platform').notNull(),
    /** password | code | addressCode | qr | ticket */
    method: text('method').notNull(),
    /** 1 success, 0 failure */
    status: smallint('status').notNull(),
    reason: text('reason').notNull().default(''),
    ip: text('ip').notNull().default(''),
    location: text('location').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_log_company_time_idx').on(t.companyId, t.createdAt),
    index('login_log_user_idx').on(t.userId),
    // Failed attempts per account in the last hour decide the login backoff.
    index('login_log_account_time_idx').on(t.account, t.createdAt),
  ],
);
