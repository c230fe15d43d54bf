import { AuthTags } from '@coldchain/contract';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { departments, devicePermissions, roles } from './org.table';

/**
 * The rights of one membership, as the auth plugin puts them on every request.
 *
 * The rules (docs/decisions.md, "Departments, roles and device rights"):
 * - the company administrator (`company_members.is_admin`) holds every tag over the whole company;
 * - any other member holds the tags of their role, plus `home:view`; without a role only `home:view`;
 * - a member sees the devices, people and departments of their own department and all below it;
 *   a member of the root department sees the whole company;
 * - per-user device grants (`device_permissions`) add single devices on top of that; the role's
 *   `device:view` / `device:edit` tags still gate the calls.
 */
export interface MemberAccess {
  departmentId: number | null;
  /** The materialised path of the member's department; null when they see the whole company. */
  scopePath: string | null;
  roleId: number | null;
  isDepartmentAdmin: boolean;
  authTags: ReadonlySet<string>;
}

export async function loadMemberAccess(
  db: Queryable,
  member: { companyId: number; isAdmin: boolean; departmentId: number | null; roleId: number | null },
): Promise<MemberAccess> {
  const [department] = member.departmentId
    ? await db
        .select({ path: departments.path, parentId: departments.parentId })
        .from(departments)
        .where(and(eq(departments.id, member.departmentId), eq(departments.companyId, member.companyId)))
    : [];
  const [role] = member.roleId
    ? await db
        .select({ tags: roles.tags, isDepartmentAdmin: roles.isDepartmentAdmin })
        .from(roles)
        .where(and(eq(roles.id, member.roleId), eq(roles.companyId, member.companyId)))
    : [];
  return memberAccessOf(member, department ?? null, role ?? null);
}

/** Every right tag, once: company administrators share it rather than copying it per request. */
const ALL_TAGS: ReadonlySet<string> = new Set(AuthTags);

/**
 * The rules above applied to rows already read: the member's department (of their company) and
 * role, each null when absent. The auth plugin reads them in the statement that reads the session
 * (modules/auth/session-caller.ts); `loadMemberAccess` reads them on their own.
 */
export function memberAccessOf(
  member: { isAdmin: boolean; departmentId: number | null; roleId: number | null },
  department: { path: string; parentId: number | null } | null,
  role: { tags: readonly string[]; isDepartmentAdmin: boolean } | null,
): MemberAccess {
  const wholeCompany = member.isAdmin || !department || department.parentId === null;
  return {
    departmentId: member.departmentId,
    scopePath: wholeCompany ? null : department.path,
    roleId: member.roleId,
    isDepartmentAdmin: member.isAdmin || (role?.isDepartmentAdmin ?? false),
    authTags: member.isAdmin ? ALL_TAGS : new Set(['home:view', ...(role?.tags ?? [])]),
  };
}

/** Departments the caller may see: their own and everything below it. */
export function departmentScope(auth: Auth): SQL {
  const company = eq(departments.companyId, auth.companyId ?? -1);
  if (auth.scopePath === null) return company;
  return and(company, sql`${departments.path} LIKE ${`${auth.scopePath}%`}`)!;
}

/** Devices of the caller's department subtree (the whole company for root members). */
function inDepartmentScope(auth: Auth): SQL | null {
  if (auth.scopePath === null) return null;
  return sql`${devices.departmentId} IN (SELECT d.id FROM ${departments} d WHERE d.company_id = ${auth.companyId} AND d.path LIKE ${`${auth.scopePath}%`})`;
}

/** Scopes that admit every device of one company (the caller's scope is the whole company). */
const wholeCompanyScopes = new WeakMap<SQL, number>();

/** `devices.company_id = <company>`, remembered as the whole company's scope. */
function wholeCompany(auth: Auth): SQL {
  const companyId = auth.companyId ?? -1;
  const scope = eq(devices.companyId, companyId);
  // Frozen: were a condition appended to it in place (`SQL.append`), it would still be taken for
  // the whole company's, and a statement built for that would drop the condition.
  Object.freeze(scope.queryChunks);
  wholeCompanyScopes.set(scope, companyId);
  return scope;
}

/**
 * The company whose every device `scope` admits, when it is a whole company's scope made by
 * `visibleDevices` or `editableDevices`; undefined for any other condition. A service given a
 * scope can then run a statement built once for the company (db/built-once.ts) instead of
 * building one around the scope's SQL.
 */
export function wholeCompanyOf(scope: SQL): number | undefined {
  return wholeCompanyScopes.get(scope);
}

/**
 * A SQL condition on `devices` that admits exactly the devices the caller may see. The role's
 * `device:view` tag gates the calls themselves (route preHandlers); this decides which devices.
 */
export function visibleDevices(auth: Auth): SQL {
  const inScope = inDepartmentScope(auth);
  if (!inScope) return wholeCompany(auth);
  const company = eq(devices.companyId, auth.companyId ?? -1);
  const granted = sql`EXISTS (SELECT 1 FROM ${devicePermissions} dp WHERE dp.device_id = ${devices.id} AND dp.user_id = ${auth.userId})`;
  return and(company, or(inScope, granted))!;
}

/** A SQL condition on `devices` that admits exactly the devices the caller may change. */
export function editableDevices(auth: Auth): SQL {
  const inScope = inDepartmentScope(auth);
  if (!inScope) return wholeCompany(auth);
  const company = eq(devices.companyId, auth.companyId ?? -1);
  const granted = sql`EXISTS (SELECT 1 FROM ${devicePermissions} dp WHERE dp.device_id = ${devices.id} AND dp.user_id = ${auth.userId} AND dp.can_edit)`;
  return and(company, or(inScope, granted))!;
}

/** `(SELECT id FROM devices WHERE <scope>)`, for filtering rows that belong to a device. */
export function deviceIdsWhere(scope: SQL): SQL {
  return sql`(SELECT ${devices.id} FROM ${devices} WHERE ${scope})`;
}

/** Throws "no permission" unless the caller may see (or, with `edit`, change) the device. */
export async function assertDeviceAccess(db: Queryable, auth: Auth, deviceId: number | null, edit = false) {
  if (!deviceId) throw new AppError('DEVICE_NOT_FOUND');
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.id, deviceId), edit ? editableDevices(auth) : visibleDevices(auth)));
  if (!row) throw new AppError('DEVICE_NOT_FOUND');
}

/** Throws "no such device" unless the caller may see every one of `deviceIds` (no repeats). */
export async function assertDevicesVisible(db: Queryable, auth: Auth, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  const seen = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(inArray(devices.id, deviceIds), visibleDevices(auth)));
  if (seen.length !== deviceIds.length) throw new AppError('DEVICE_NOT_FOUND');
}

/**
 * Who may see a device, and so receives its live alarms: the company administrators, members
 * whose role has `device:view` and whose department contains the device's department (or is the
 * root), and members granted the device itself.
 */
export async function usersWhoMaySeeDevice(
  db: Queryable,
  companyId: number,
  deviceId: number,
): Promise<number[]> {
  const rows = await queryRows<{ user_id: string | number }>(
    db,
    usersWhoMaySeeDeviceQuery(companyId, deviceId),
  );
  return rows.map((r) => Number(r.user_id));
}

/**
 * The same as a subquery of one column, `user_id`, so a statement that raises an alarm can also
 * answer who receives it (one round trip instead of two). The company and device may be columns
 * of the outer statement (`sql\`rec.device_id\``): one answer per alarm or reminder of a batch.
 */
export function usersWhoMaySeeDeviceQuery(companyId: number | SQL, deviceId: number | SQL): SQL {
  return sql`
    SELECT m.user_id FROM ${companyMembers} m
    WHERE m.company_id = ${companyId} AND (
      m.is_admin
      OR EXISTS (SELECT 1 FROM ${devicePermissions} dp WHERE dp.user_id = m.user_id AND dp.device_id = ${deviceId})
      OR EXISTS (
        SELECT 1 FROM ${roles} r
        JOIN ${departments} md ON md.id = m.department_id
        JOIN ${devices} dev ON dev.id = ${deviceId} AND dev.company_id = ${companyId}
        LEFT JOIN ${departments} dd ON dd.id = dev.department_id
        WHERE r.id = m.role_id AND 'device:view' = ANY(r.tags)
          AND (md.parent_id IS NULL OR dd.path LIKE md.path || '%')
      )
    )`;
}

/** Company administrators: they receive credit and delivery warnings. */
export async function companyAdministrators(db: Queryable, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.isAdmin, true)));
  return rows.map((r) => r.userId);
}

/** Keeps only the ids among `userIds` that are members of the company. */
export async function membersAmong(db: Queryable, companyId: number, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.userId, userIds)));
  return rows.map((r) => r.userId);
}

/**
 * Checks that a department named in a request (`departmentId` of a device, a person, a role) is
 * one the caller may see; absent or empty passes. A foreign or out-of-scope id is "no permission".
 */
export async function assertDepartmentInScope(
  db: Queryable,
  auth: Auth,
  wireId: string | null | undefined,
): Promise<number | null> {
  if (wireId === undefined || wireId === null || wireId === '') return null;
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select({ id: departments.id })
        .from(departments)
        .where(and(departmentScope(auth), eq(departments.id, id)))
    : [];
  if (!row) throw new AppError('NO_PERMISSION');
  return row.id;
}
