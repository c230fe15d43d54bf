import type { DeviceView, Page } from '@coldchain/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { pageStatement } from '../../db/page-query';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { genericPlanOf, sentOf } from '../../test/generic-plan';
import { deviceListQuery } from './device-views';
import { devices } from './devices.table';

/** Devices added to a company beside `templateId`, copies of it under their own serials and names. */
const ADDED = 3_000;

describe('the device list of a large company', () => {
  const ctx = useTestApp();

  async function largeCompany() {
    const company = await buildCompany(ctx.app.db);
    const template = await buildDevice(ctx.app.db, company.id, { name: 'Template' });
    const copied = Object.values(getTableColumns(devices))
      .map((column) => column.name)
      .filter((name) => !['id', 'serial', 'name'].includes(name));
    // Names in no particular order of their serials, so that the list's order is its own work.
    await ctx.app.db.execute(
      sql.raw(`insert into devices (serial, name, ${copied.join(', ')})
        select 'SCALE' || g || '${template.serial}', 'Room ' || md5(g::text), ${copied.map((c) => `d.${c}`).join(', ')}
        from devices d, generate_series(1, ${ADDED}) g where d.id = ${Number(template.id)}`),
    );
    // As the server's table upkeep does once a table has grown (telemetry/table-upkeep.ts).
    await ctx.app.db.execute(sql`analyze devices`);
    return company;
  }

  it('answers the first page in name order with the whole total', async () => {
    const company = await largeCompany();
    const token = await login(ctx.app, company.admin.account);
    const page = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      { pageNum: 1, pageSize: 20 },
      { token },
    );
    expect(page.body.msgCode).toBe(200);
    expect(page.body.data.total).toBe(ADDED + 1);
    const expected = await queryRows<{ name: string }>(
      ctx.app.db,
      sql`select name from devices where company_id = ${company.id} order by name, id limit 20`,
    );
    expect(page.body.data.list.map((d) => d.name)).toEqual(expected.map((r) => r.name));
  });

  it('walks the name index for a page of the unfiltered list, planned once for every value as the embedded database plans it', async () => {
    const company = await largeCompany();
    const page = { pageNum: 1, pageSize: 20 };
    const plan = await genericPlanOf(
      ctx.app.db,
      sentOf(pageStatement(deviceListQuery(eq(devices.companyId, company.id), page, false), page)),
    );
    expect(plan).toContain('devices_company_name_idx');
    // Without the index, or planned with the filters' conditions: "Sort Key: devices.name,
    // devices.id" over every device of the company.
    expect(plan).not.toMatch(/Sort Key:[^\n]*\bname\b/);
  });

  it('still filters the large list by state', async () => {
    const company = await largeCompany();
    const token = await login(ctx.app, company.admin.account);
    const [one] = await queryRows<{ id: number | string }>(
      ctx.app.db,
      sql`update devices set state = 5 where id = (select id from devices where company_id = ${company.id}
            order by name desc limit 1) returning id`,
    );
    const page = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      { pageNum: 1, pageSize: 20, state: 5 },
      { token },
    );
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.list.map((d) => d.id)).toEqual([String(one!.id)]);
  });
});
