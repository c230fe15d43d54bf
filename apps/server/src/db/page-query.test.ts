import type { Page } from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../modules/devices/devices.table';
import { visibleDevices } from '../modules/org/access';
import { devicePermissions } from '../modules/org/org.table';
import { resolveAuth } from '../plugins/auth';
import { useTestApp } from '../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../test/factories';
import { statementsOf } from '../test/statement-log';
import { type PageQuery, pageOf, pageStatement, whenGiven } from './page-query';

/** The pager (db/page-query.ts) on a real table: devices, whose list the console pages most. */
describe('one statement per page', () => {
  const ctx = useTestApp();
  let companyId: number;
  /** Device ids by name, in the order the list gives (name, then id). */
  const ids: Record<string, number[]> = {};
  let grantedId: number;
  let memberToken: string;

  beforeAll(async () => {
    const company = await buildCompany(ctx.app.db);
    companyId = company.id;
    const pharmacy = await buildDepartment(ctx.app.db, companyId, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, companyId, { name: 'Store' });
    // Three devices share a name, so only the id decides their order.
    const plan: [string, number][] = [
      ['Bravo', store.id],
      ['Alpha', pharmacy.id],
      ['Bravo', pharmacy.id],
      ['Charlie', store.id],
      ['Bravo', store.id],
    ];
    for (const [name, departmentId] of plan) {
      const device = await buildDevice(ctx.app.db, companyId, { name, departmentId });
      ids[name] = [...(ids[name] ?? []), Number(device.id)];
    }
    for (const list of Object.values(ids)) list.sort((a, b) => a - b);
    // A device of another company never counts.
    const other = await buildCompany(ctx.app.db);
    await buildDevice(ctx.app.db, other.id, { name: 'Alpha' });

    const role = await buildRole(ctx.app.db, companyId, pharmacy.id, ['device:view']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, companyId, member.id, false, { departmentId: pharmacy.id, roleId: role.id });
    grantedId = ids.Charlie![0]!;
    await ctx.app.db
      .insert(devicePermissions)
      .values({ companyId, userId: member.id, deviceId: grantedId, canEdit: false });
    memberToken = await login(ctx.app, member.account);
  });

  /** The devices list as pageOf answers it: ids only, with the pager's own filters. */
  async function page(
    request: { pageNum: number; pageSize: number; name?: string },
    scope = eq(devices.companyId, companyId),
  ) {
    const query: PageQuery = {
      row: sql`json_build_object('id', ${devices.id})`,
      from: devices,
      where: and(
        scope,
        whenGiven(request.name, 'text', (v) => sql`${devices.name} = ${v}`),
      ),
      orderBy: sql`${devices.name}, ${devices.id}`,
    };
    const { result, statements } = await statementsOf(ctx.app.db, () =>
      pageOf(ctx.app.db, query, request, (raw: { id: number }) => Number(raw.id)),
    );
    expect(statements).toHaveLength(1);
    return result;
  }

  const byName = () => [...ids.Alpha!, ...ids.Bravo!, ...ids.Charlie!];

  it('answers the first page and the whole list’s total in one statement', async () => {
    expect(await page({ pageNum: 1, pageSize: 2 })).toEqual<Page<number>>({
      list: byName().slice(0, 2),
      total: 5,
      pageNum: 1,
      pageSize: 2,
    });
  });

  it('answers an empty list with a total of zero', async () => {
    expect(await page({ pageNum: 1, pageSize: 20, name: 'Nobody' })).toMatchObject({ list: [], total: 0 });
    expect(await page({ pageNum: 1, pageSize: 20 }, eq(devices.companyId, -1))).toMatchObject({
      list: [],
      total: 0,
    });
  });

  it('still counts the list for a page past its end', async () => {
    expect(await page({ pageNum: 4, pageSize: 2 })).toMatchObject({ list: [], total: 5, pageNum: 4 });
    expect(await page({ pageNum: 9, pageSize: 1, name: 'Bravo' })).toMatchObject({ list: [], total: 3 });
    // Far past any list: an empty page, not an integer overflow in the statement.
    expect(await page({ pageNum: 1e12, pageSize: 200 })).toMatchObject({ list: [], total: 5 });
    expect(await page({ pageNum: Number.MAX_SAFE_INTEGER, pageSize: 20 })).toMatchObject({
      list: [],
      total: 5,
    });
  });

  it('counts only what the filters admit', async () => {
    expect(await page({ pageNum: 1, pageSize: 2, name: 'Bravo' })).toMatchObject({
      list: ids.Bravo!.slice(0, 2),
      total: 3,
    });
    expect(await page({ pageNum: 2, pageSize: 2, name: 'Bravo' })).toMatchObject({
      list: ids.Bravo!.slice(2),
      total: 3,
    });
  });

  it('keeps one order across pages when names tie: every row once, none skipped', async () => {
    const walked: number[] = [];
    for (let pageNum = 1; pageNum <= 5; pageNum++) {
      const { list, total } = await page({ pageNum, pageSize: 1 });
      expect(total).toBe(5);
      walked.push(...list);
    }
    expect(walked).toEqual(byName());
    // Twice the same page, the same rows.
    expect((await page({ pageNum: 2, pageSize: 3 })).list).toEqual(
      (await page({ pageNum: 2, pageSize: 3 })).list,
    );
  });

  it('pages a department member’s view: their department’s devices and the one granted to them', async () => {
    const auth = await resolveAuth(ctx.app.db, memberToken, undefined, 3_600_000);
    expect(auth.scopePath).not.toBeNull();
    const seen = await page({ pageNum: 1, pageSize: 10 }, visibleDevices(auth));
    // The second Bravo is the pharmacy's (created second); Charlie is the granted one.
    expect(seen).toMatchObject({ list: [ids.Alpha![0], ids.Bravo![1], grantedId], total: 3 });
    const beyond = await page({ pageNum: 2, pageSize: 3 }, visibleDevices(auth));
    expect(beyond).toMatchObject({ list: [], total: 3 });
  });

  it('writes the same statement text whatever filters a request sends, so it is planned once', () => {
    const dialect = new PgDialect();
    const textOf = (name: string | undefined, pageNum: number) =>
      dialect.sqlToQuery(
        pageStatement(
          {
            row: sql`json_build_object('id', ${devices.id})`,
            from: devices,
            where: and(
              eq(devices.companyId, companyId),
              whenGiven(name, 'text', (v) => sql`${devices.name} = ${v}`),
            ),
            orderBy: sql`${devices.name}, ${devices.id}`,
          },
          { pageNum, pageSize: 20 },
        ),
      ).sql;
    expect(textOf(undefined, 1)).toBe(textOf('Bravo', 3));
    expect(textOf(undefined, 1).startsWith('/*planned-once*/')).toBe(true);
  });
});
