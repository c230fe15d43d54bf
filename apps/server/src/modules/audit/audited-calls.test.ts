import { auditActionTitles, type OperationLogEntry, type Page } from '@coldchain/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { departments } from '../org/org.table';
import { AUDITED_CALLS, isChangingCall } from './audited-calls';

describe('operation log completeness', () => {
  const ctx = useTestApp();

  it('lists every call whose name says it changes data, as audited or exempt with a reason', () => {
    const routes = [...ctx.app.routePermissions.values()].map((r) => r.url);
    const changing = routes.filter(isChangingCall);
    const unlisted = changing.filter((url) => !(url in AUDITED_CALLS));
    expect(unlisted, 'add these calls to audited-calls.ts').toEqual([]);
    const unknown = Object.keys(AUDITED_CALLS).filter((url) => !routes.includes(url));
    expect(unknown, 'these listed calls are not registered').toEqual([]);
    for (const [url, coverage] of Object.entries(AUDITED_CALLS)) {
      if ('exempt' in coverage) expect(coverage.exempt.length, url).toBeGreaterThan(10);
    }
  });

  it('names every audited action in both languages for the screen and the export', () => {
    const actions = Object.values(AUDITED_CALLS).flatMap((c) => ('actions' in c ? c.actions : []));
    const untitled = actions.filter((action) => !auditActionTitles[action]);
    expect(untitled).toEqual([]);
  });

  it('a successful change through each of these calls writes its listed action', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const [root] = await ctx.app.db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.companyId, company.id), isNull(departments.parentId)));
    const rootId = String(root!.id);
    const calls: [string, Record<string, unknown>][] = [
      ['/api/device/setRemark', { id: device.id, remark: 'checked' }],
      ['/api/userOrganize/addDepartment', { parentId: rootId, name: 'Warehouse' }],
      ['/api/role/addRole', { departmentId: rootId, name: 'Auditor', tags: ['audit:view'] }],
      ['/api/group/addGroup', { departmentId: rootId, name: 'Freezers' }],
      ['/api/user/changeOrganizeName', { name: 'Renamed Co' }],
    ];
    for (const [url, body] of calls) {
      const before = await call<Page<OperationLogEntry>>(
        ctx.app,
        '/api/audit/pageOperationLog',
        {},
        { token },
      );
      const answer = await call(ctx.app, url, body, { token });
      expect(answer.body.msgCode, `${url}: ${answer.body.msgContent}`).toBe(200);
      const after = await call<Page<OperationLogEntry>>(
        ctx.app,
        '/api/audit/pageOperationLog',
        {},
        { token },
      );
      const written = after.body.data.list.slice(0, after.body.data.total - before.body.data.total);
      const coverage = AUDITED_CALLS[url]!;
      expect('actions' in coverage && coverage.actions, url).toBeTruthy();
      expect(
        written.map((e) => e.action).filter((a) => 'actions' in coverage && coverage.actions.includes(a)),
        url,
      ).toHaveLength(1);
      expect(written[0]!.userId).toBe(String(company.admin.id));
    }
  });
});
