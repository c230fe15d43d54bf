import {
  bigint,
  bigserial,
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from '../users/users.table';

/** A tenant. Every tenant-owned table carries `company_id` as its first filter. */
export const companies = pgTable('companies', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  industry: text('industry').notNull().default(''),
  /** Region of the company's location (spec section 3 "location"), as devices have it. */
  region: text('region').notNull().default(''),
  address: text('address').notNull().default(''),
  /** Services the supplier has enabled for this company (`service:*` tags). */
  services: text('services').array().notNull().default([]),
  /**
   * Optional end of each enabled service: `service tag -> ISO instant`. A service past its end
   * counts as off at once (modules/auth/session-caller.ts reads it), no job needed.
   */
  serviceExpiry: jsonb('service_expiry').$type<Record<string, string>>().notNull().default({}),
  /** Disabled by a platform operator: its members no longer reach it (modules/operator). */
  disabled: boolean('disabled').notNull().default(false),
  /**
   * Until then platform operators may open the company's devices read-only (support access,
   * granted by a company administrator; modules/operator). Null = never granted or revoked.
   */
  supportAccessUntil: timestamp('support_access_until', { withTimezone: true }),
  /** Members must renew their password every 90 days (spec section 9). */
  passwordRenewal: boolean('password_renewal').notNull().default(false),
  /**
   * Audit signature (spec sections 5 and 6): resolving alarms and exporting need the member's
   * signature password. A company policy set by its administrator (modules/signature).
   */
  signCheck: boolean('sign_check').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who belongs to which company, in which department and with which role. `role_id` is null
 * between joining and the person in charge giving a role: such a member sees only the home page.
 * `department_id` and `role_id` point into modules/org (foreign keys are in the migration, not
 * here, to keep the table modules free of import cycles).
 */
export const companyMembers = pgTable(
  'company_members',
  {
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** The legal person of the company (spec section 3, "legal-person flag"). */
    legalPerson: boolean('legal_person').notNull().default(false),
    /** May export files (spec section 6 "Excel export" flag); set by the company administrator. */
    exportExcel: boolean('export_excel').notNull().default(true),
    departmentId: bigint('department_id', { mode: 'number' }),
    roleId: bigint('role_id', { mode: 'number' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId] }),
    index('company_members_user_idx').on(t.userId),
    index('company_members_department_idx').on(t.departmentId),
    index('company_members_role_idx').on(t.roleId),
  ],
);
