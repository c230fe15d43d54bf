import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { hashPassword } from '../../lib/password';
import { companyMembers } from '../companies/companies.table';
import { installLeader } from '../org/departments.service';
import { departments, roles } from '../org/org.table';
import { users } from '../users/users.table';
import type { DemoDepartment } from './demo-organisation';
import { DEMO_PASSWORD } from './demo-seed';

/**
 * The demo's colleagues: a person in charge and a member of staff in each department, so every
 * monitor's alarms reach three people (the administrator and the two of its department), the
 * number below which the reminders warn (spec section 9), and department scopes can be tried by
 * logging in as one of them (same password as the administrator).
 */
export const DEMO_PEOPLE: { account: string; name: string; department: DemoDepartment; leads: boolean }[] = [
  { account: 'aisha@example.com', name: 'Aisha Rahman', department: 'Pharmacy', leads: true },
  { account: 'weiming@example.com', name: 'Lim Wei Ming', department: 'Pharmacy', leads: false },
  { account: 'ravi@example.com', name: 'Ravi Kumar', department: 'Cold Store', leads: true },
  { account: 'nurul@example.com', name: 'Nurul Huda', department: 'Cold Store', leads: false },
];

/** What a member of staff may do: watch the monitors and take alarms in hand. */
const DUTY_ROLE = {
  name: 'Duty staff',
  tags: ['home:view', 'monitoring:view', 'device:view', 'alarm:view', 'alarm:resolve'],
};

/**
 * Adds the colleagues once (looked up by account, so a restart adds nothing and a person a demo
 * user removed is not brought back). Returns the user ids of the people of each department who
 * are still members.
 */
export async function seedDemoPeople(db: Db, companyId: number): Promise<Map<DemoDepartment, number[]>> {
  const accounts = DEMO_PEOPLE.map((p) => p.account);
  const existing = await db
    .select({ id: users.id, account: users.account })
    .from(users)
    .where(inArray(users.account, accounts));
  const known = new Map(existing.map((u) => [u.account, u.id]));
  const missing = DEMO_PEOPLE.filter((p) => !known.has(p.account));
  if (missing.length > 0) {
    // One scrypt hash for all of them: the password is the one the README publishes anyway.
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db.transaction(async (tx) => {
      for (const person of missing) {
        const [department] = await tx
          .select()
          .from(departments)
          .where(and(eq(departments.companyId, companyId), eq(departments.name, person.department)));
        if (!department) continue;
        const [user] = await tx
          .insert(users)
          .values({
            account: person.account,
            email: person.account,
            name: person.name,
            passwordHash,
            lastCompanyId: companyId,
          })
          .returning({ id: users.id });
        await tx
          .insert(companyMembers)
          .values({ companyId, userId: user!.id, departmentId: department.id, roleId: null });
        if (person.leads) await installLeader(tx, department, user!.id);
        else {
          const roleId = await dutyRole(tx, companyId, department.id);
          await tx
            .update(companyMembers)
            .set({ roleId })
            .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, user!.id)));
        }
        known.set(person.account, user!.id);
      }
    });
  }
  const members = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.userId, [...known.values()])));
  const stillMembers = new Set(members.map((m) => m.userId));
  const byDepartment = new Map<DemoDepartment, number[]>();
  for (const person of DEMO_PEOPLE) {
    const id = known.get(person.account);
    if (id === undefined || !stillMembers.has(id)) continue;
    byDepartment.set(person.department, [...(byDepartment.get(person.department) ?? []), id]);
  }
  return byDepartment;
}

/** The department's duty role, created once. */
async function dutyRole(db: Queryable, companyId: number, departmentId: number): Promise<number> {
  const [found] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.departmentId, departmentId), eq(roles.name, DUTY_ROLE.name)));
  if (found) return found.id;
  const [role] = await db
    .insert(roles)
    .values({ companyId, departmentId, name: DUTY_ROLE.name, tags: DUTY_ROLE.tags })
    .returning({ id: roles.id });
  return role!.id;
}
