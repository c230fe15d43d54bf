import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { companies } from '../companies/companies.table';
import { deviceGroups } from '../groups/groups.table';
import { deviceInventory } from '../inventory/inventory.table';
import { departments, roles } from '../org/org.table';
import { users } from '../users/users.table';
import { DEMO_DEPARTMENTS, seedDemoOrganisation } from './demo-organisation';
import { DEMO_ACCOUNT, DEMO_COMPANY, DEMO_PASSWORD, seedDemo } from './demo-seed';

describe('demo seed', () => {
  const ctx = useTestApp();

  it('creates the demo company, its administrator and spares SIM1001-SIM1020, and is idempotent', async () => {
    const first = await seedDemo(ctx.app.db);
    expect(first).toEqual({ created: true, companyId: expect.any(Number) });
    expect(await seedDemo(ctx.app.db)).toEqual({ created: false, companyId: first.companyId });
    const [userCount] = await ctx.app.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.account, DEMO_ACCOUNT));
    expect(Number(userCount!.n)).toBe(1);
    const [companyCount] = await ctx.app.db
      .select({ n: count() })
      .from(companies)
      .where(eq(companies.name, DEMO_COMPANY));
    expect(Number(companyCount!.n)).toBe(1);
    const spares = await ctx.app.db.select().from(deviceInventory).orderBy(deviceInventory.serial);
    expect(spares.map((s) => s.serial)).toEqual(Array.from({ length: 20 }, (_, i) => `SIM${1001 + i}`));
    expect(spares.every((s) => s.channelCount === s.channels.length && s.channelCount >= 1)).toBe(true);

    const token = await login(ctx.app, DEMO_ACCOUNT, DEMO_PASSWORD);
    const { body } = await call<{ name: string; isAdmin: boolean; current: boolean }[]>(
      ctx.app,
      '/api/index/getUserCompanys',
      {},
      { token },
    );
    expect(body.data).toEqual([
      expect.objectContaining({ name: DEMO_COMPANY, isAdmin: true, current: true }),
    ]);
  });

  it('gives the demo two departments with administrator roles and groups, once, on every start', async () => {
    const { companyId } = await seedDemo(ctx.app.db);
    const first = await seedDemoOrganisation(ctx.app.db, companyId!);
    const again = await seedDemoOrganisation(ctx.app.db, companyId!);
    expect([...again.entries()]).toEqual([...first.entries()]);
    expect([...first.keys()].sort()).toEqual(Object.values(DEMO_DEPARTMENTS).flat().sort());
    const rows = await ctx.app.db
      .select({
        name: departments.name,
        level: departments.level,
        roleName: roles.name,
        admin: roles.isDepartmentAdmin,
      })
      .from(departments)
      .innerJoin(roles, eq(roles.departmentId, departments.id))
      .where(and(eq(departments.companyId, companyId!), eq(departments.level, 2)))
      .orderBy(departments.name);
    expect(rows).toEqual([
      { name: 'Cold Store', level: 2, roleName: 'Administrator', admin: true },
      { name: 'Pharmacy', level: 2, roleName: 'Administrator', admin: true },
    ]);
    const groups = await ctx.app.db.select().from(deviceGroups).where(eq(deviceGroups.companyId, companyId!));
    expect(groups).toHaveLength(5);
  });
});
