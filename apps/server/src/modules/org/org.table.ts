import {
  bigint,
  bigserial,
  boolean,
  index,
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
 * A department of a company. Every company has exactly one root department (parent null, level 1)
 * that stands for the company itself; the tree hangs under it. `path` is the chain of ids from
 * the root, `/1/5/9/`, so "this department and everything below it" is one indexed LIKE.
 */
export const departments = pgTable(
  'departments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    parentId: bigint('parent_id', { mode: 'number' }),
    path: text('path').notNull().default(''),
    /** 12 digits (spec section 5), unique on the platform: people join a department by its code. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    level: smallint('level').notNull(),
    /** The person in charge: approves joining requests, holds the department administrator role. */
    leaderUserId: bigint('leader_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    address: text('address').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('departments_code_key').on(t.code),
    index('departments_company_path_idx').on(t.companyId, t.path),
  ],
);

/**
 * A role of a department. The department administrator role (`is_department_admin`) holds every
 * right over the department and all departments below it; its tags are the ceiling for every
 * role below it (spec section 6: reducing them reduces lower roles, never raises them).
 */
export const roles = pgTable(
  'roles',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: bigint('department_id', { mode: 'number' })
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isDepartmentAdmin: boolean('is_department_admin').notNull().default(false),
    /** `authTags` granted by the role (contract `AuthTags`). */
    tags: text('tags').array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_department_name_key').on(t.departmentId, t.name)],
);

/** An invitation link to a department: any number of uses, valid 24 hours (spec section 9). */
export const invitations = pgTable(
  'invitations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The random id in the link (`/invite?id=...`); unguessable, unlike the serial id. */
    code: text('code').notNull(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: bigint('department_id', { mode: 'number' })
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invitations_code_key').on(t.code)],
);

/** JoinRequestState: 1 pending, 2 approved, 3 rejected. */
export const joinRequests = pgTable(
  'join_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: bigint('department_id', { mode: 'number' })
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: smallint('state').notNull().default(1),
    remark: text('remark').notNull().default(''),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('join_requests_department_state_idx').on(t.departmentId, t.state)],
);

/**
 * Per-user rights on single devices (spec section 6, "batch permission"): they add to what the
 * member's department and role already allow, so a person can be given one fridge of another
 * department without moving them.
 */
export const devicePermissions = pgTable(
  'device_permissions',
  {
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    canEdit: boolean('can_edit').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.deviceId] }),
    index('device_permissions_device_idx').on(t.deviceId),
  ],
);
