import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { hashPassword } from '../lib/password';
import { normaliseAccount } from '../modules/auth/auth.service';
import { createCompanyWithAdmin } from '../modules/companies/companies.service';
import { companyMembers } from '../modules/companies/companies.table';
import { addDevice } from '../modules/devices/devices.service';
import { sensors } from '../modules/devices/devices.table';
import { addInventory } from '../modules/inventory/inventory.service';
import { insertDepartment } from '../modules/org/company-setup';
import { departments, roles } from '../modules/org/org.table';
import { users } from '../modules/users/users.table';
import { call } from './build-app';

let nameCounter = 0;
/**
 * A name no other built in this process has: a counter, and random text for the databases a test
 * shares with other processes. Three random bytes alone collided once in a file that builds a role
 * per permission tag in one department (a failed clean-clone run, roles_department_name_key).
 */
function uniqueName(prefix: string): string {
  nameCounter += 1;
  return `${prefix} ${nameCounter}-${randomBytes(3).toString('hex')}`;
}

export const DEFAULT_PASSWORD = 'Passw0rd1';

/** Precomputed once: hashing with scrypt in every factory call would slow the suite for nothing. */
let defaultHash: Promise<string> | undefined;

/**
 * scrypt's N for the users tests build: each login verifies against the stored hash's own
 * parameters, so a small N makes the suite's thousand logins cheap (the product stores 2^15).
 */
const TEST_SCRYPT_COST = 2 ** 10;

export async function buildUser(db: Db, fields: { account?: string; name?: string; password?: string } = {}) {
  const account = normaliseAccount(fields.account ?? `user-${randomBytes(5).toString('hex')}@example.com`);
  defaultHash ??= hashPassword(DEFAULT_PASSWORD, TEST_SCRYPT_COST);
  const passwordHash = fields.password
    ? await hashPassword(fields.password, TEST_SCRYPT_COST)
    : await defaultHash;
  const [user] = await db
    .insert(users)
    .values({ account, email: account, name: fields.name ?? 'Test User', passwordHash })
    .returning();
  return { ...user!, password: fields.password ?? DEFAULT_PASSWORD };
}

/** A company and its administrator. */
export async function buildCompany(db: Db, fields: { name?: string; services?: string[] } = {}) {
  const admin = await buildUser(db, { name: 'Company Admin' });
  const id = await createCompanyWithAdmin(db, admin.id, {
    name: fields.name ?? uniqueName('Company'),
    services: fields.services,
  });
  return { id, admin };
}

/**
 * Makes `userId` a member. By default they join the root department; an administrator gets the
 * root administrator role, anyone else no role (home page only) unless `roleId` is given.
 */
export async function addMember(
  db: Db,
  companyId: number,
  userId: number,
  isAdmin = false,
  placement: { departmentId?: number; roleId?: number | null } = {},
) {
  const [root] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)));
  const [adminRole] = isAdmin
    ? await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.departmentId, root!.id), eq(roles.isDepartmentAdmin, true)))
    : [];
  await db.insert(companyMembers).values({
    companyId,
    userId,
    isAdmin,
    departmentId: placement.departmentId ?? root!.id,
    roleId: placement.roleId ?? adminRole?.id ?? null,
  });
}

/** A department under `parentId` (the root when absent). */
export async function buildDepartment(
  db: Db,
  companyId: number,
  fields: { name?: string; parentId?: number } = {},
) {
  const [parent] = await db
    .select()
    .from(departments)
    .where(
      fields.parentId
        ? eq(departments.id, fields.parentId)
        : and(eq(departments.companyId, companyId), isNull(departments.parentId)),
    );
  return insertDepartment(db, {
    companyId,
    parentId: parent!.id,
    parentPath: parent!.path,
    level: parent!.level + 1,
    name: fields.name ?? uniqueName('Dept'),
  });
}

/** A role of a department holding `tags`. */
export async function buildRole(
  db: Db,
  companyId: number,
  departmentId: number,
  tags: string[],
  fields: { name?: string; isDepartmentAdmin?: boolean } = {},
) {
  const [role] = await db
    .insert(roles)
    .values({
      companyId,
      departmentId,
      name: fields.name ?? uniqueName('Role'),
      tags,
      isDepartmentAdmin: fields.isDepartmentAdmin ?? false,
    })
    .returning();
  return role!;
}

/** Logs in through the real call and returns the token. */
export async function login(
  app: FastifyInstance,
  account: string,
  password = DEFAULT_PASSWORD,
): Promise<string> {
  const { body } = await call<{ accessToken: string }>(app, '/api/doLogin', {
    account,
    password,
    type: 1,
    platform: 1,
  });
  if (body.msgCode !== 200) throw new Error(`login failed: ${body.msgContent}`);
  return body.data.accessToken;
}

let serialCounter = 0;

/** Puts a serial in the inventory and binds it to the company through the real service. */
export async function buildDevice(
  db: Db,
  companyId: number,
  fields: {
    channels?: { type: string; unit: string; min: number; max: number }[];
    name?: string;
    departmentId?: number;
  } = {},
) {
  const serial = `T${process.pid}${Date.now().toString(36).toUpperCase()}${++serialCounter}`;
  const channels = (fields.channels ?? [{ type: 'temperature', unit: '°C', min: -40, max: 85 }]).map(
    (c, i) => ({
      ch: i + 1,
      ...c,
    }),
  );
  await addInventory(db, [{ serial, model: 'CC-TEST', version: 'standard', channels }]);
  const { id, deviceKey } = await addDevice(
    db,
    { companyId, userId: null, ip: '' },
    {
      serial,
      name: fields.name ?? `Fridge ${serialCounter}`,
      departmentId: fields.departmentId ? String(fields.departmentId) : undefined,
    },
  );
  const sensorRows = await db
    .select()
    .from(sensors)
    .where(eq(sensors.deviceId, Number(id)));
  return { id, serial, deviceKey, sensors: sensorRows.sort((a, b) => a.channel - b.channel) };
}
