import {
  bigint,
  bigserial,
  boolean,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A person who can log in. `account` is the login name: an e-mail address or a mobile number. */
export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Lower-cased e-mail or normalised mobile number. */
    account: text('account').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    gender: smallint('gender').notNull().default(0),
    headImg: text('head_img').notNull().default(''),
    lastCompanyId: bigint('last_company_id', { mode: 'number' }),
    pcAlarmVoice: boolean('pc_alarm_voice').notNull().default(true),
    dataViewPath: text('data_view_path').notNull().default(''),
    /** Second number for alarm calls and SMS when the first is not answered. */
    altPhone: text('alt_phone').notNull().default(''),
    /** scrypt hash of the signature password (patrol and export confirmation); null = not set. */
    signPasswordHash: text('sign_password_hash'),
    /** Wrong signature passwords in a row (modules/signature): the fifth within an hour locks signing. */
    signFailCount: smallint('sign_fail_count').notNull().default(0),
    signFailedAt: timestamp('sign_failed_at', { withTimezone: true }),
    /** Signing (and changing the signature password) is refused until then. */
    signLockedUntil: timestamp('sign_locked_until', { withTimezone: true }),
    /** The user's openid at the WeChat official account, from the OAuth binding; null = not bound. */
    wechatOpenId: text('wechat_open_id'),
    /** Follows the official account and has not turned its messages off. */
    wechatFollowed: boolean('wechat_followed').notNull().default(false),
    /** Language of the user's alarm messages: the `language` header of their latest calls (wire values). */
    language: text('language').$type<'en' | 'cn'>().notNull().default('en'),
    disabled: boolean('disabled').notNull().default(false),
    /** Platform operator (the supplier's staff): the operator console, never a company's data (modules/operator). */
    isOperator: boolean('is_operator').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_account_key').on(t.account),
    index('users_last_login_idx').on(t.lastLoginAt),
    uniqueIndex('users_wechat_open_id_key').on(t.wechatOpenId),
  ],
);

/** An opaque login token, stored only as its SHA-256 hash so that a database leak exposes no session. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: smallint('platform').notNull().default(1),
    /** 'full', or 'passwordChange': may only change the password (renewal, msgCode 301). */
    scope: text('scope').notNull().default('full'),
    ip: text('ip').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);
