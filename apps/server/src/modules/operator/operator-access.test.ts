import type { Page, SupportAccessView, SupportDeviceView } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { loadConfig } from '../../lib/config';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';
import { applyOperatorAccounts, PLATFORM_CHAIN } from './operators.service';
import { isOperatorCommand, runOperatorCommand } from './operators-admin';

const HOUR = 3_600_000;

describe('support access', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 100_000 });
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let adminToken: string;
  let operatorToken: string;

  beforeAll(async () => {
    company = await buildCompany(ctx.app.db, { name: 'Support Co' });
    adminToken = await login(ctx.app, company.admin.account);
    const operator = await buildUser(ctx.app.db);
    await ctx.app.db.update(users).set({ isOperator: true }).where(eq(users.id, operator.id));
    operatorToken = await login(ctx.app, operator.account);
    await buildDevice(ctx.app.db, company.id, { name: 'Freezer 1' });
  });

  const devicesAsOperator = () =>
    call<Page<SupportDeviceView>>(
      ctx.app,
      '/api/operator/pageSupportDevices',
      { id: String(company.id) },
      { token: operatorToken },
    );
  const grant = (until: number | null, token = adminToken) =>
    call<SupportAccessView>(ctx.app, '/api/company/setSupportAccess', { until }, { token });

  it('keeps a company’s devices from operators until its administrator grants access', async () => {
    const NOT_GRANTED = translate('SUPPORT_ACCESS_NOT_GRANTED', 'en');
    expect((await devicesAsOperator()).body.msgContent).toBe(NOT_GRANTED);
    const until = Date.now() + HOUR;
    expect((await grant(until)).body.data).toEqual({ until });
    const status = await call<SupportAccessView>(
      ctx.app,
      '/api/company/supportAccessStatus',
      {},
      { token: adminToken },
    );
    expect(status.body.data.until).toBe(until);
    const page = await devicesAsOperator();
    expect(page.body.data.list).toEqual([
      expect.objectContaining({ name: 'Freezer 1', sensors: [expect.objectContaining({ channel: 1 })] }),
    ]);
    // Read-only and nothing more: the company's own calls stay closed to the operator.
    const own = await call(
      ctx.app,
      '/api/device/pageDevices',
      {},
      { token: operatorToken, companyId: company.id },
    );
    expect(own.body.msgContent).toBe(translate('NO_PERMISSION', 'en'));
    // The window ends by itself.
    await ctx.app.db
      .update(companies)
      .set({ supportAccessUntil: new Date(Date.now() - 1000) })
      .where(eq(companies.id, company.id));
    expect((await devicesAsOperator()).body.msgContent).toBe(NOT_GRANTED);
    // Revoking closes it at once.
    await grant(Date.now() + HOUR);
    expect((await devicesAsOperator()).body.msgCode).toBe(200);
    expect((await grant(null)).body.data).toEqual({ until: null });
    expect((await devicesAsOperator()).body.msgContent).toBe(NOT_GRANTED);
    const actions = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.companyId, company.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'company.grantSupportAccess',
        'company.revokeSupportAccess',
        'operator.viewDevices',
      ]),
    );
  });

  it('lets only the company administrator grant it, for at most 30 days', async () => {
    expect((await grant(Date.now() + 31 * 24 * HOUR)).body.msgContent).toBe(
      translate('SUPPORT_ACCESS_WINDOW', 'en', { days: 30 }),
    );
    expect((await grant(Date.now() - 1000)).body.msgContent).toContain('must end in the future');
    const member = await buildUser(ctx.app.db);
    const department = await buildDepartment(ctx.app.db, company.id);
    const role = await buildRole(ctx.app.db, company.id, department.id, ['org:view', 'org:edit']);
    await addMember(ctx.app.db, company.id, member.id, false, {
      departmentId: department.id,
      roleId: role.id,
    });
    const memberToken = await login(ctx.app, member.account);
    expect((await grant(Date.now() + HOUR, memberToken)).body.msgContent).toBe(
      translate('SUPPORT_ACCESS_ADMIN_ONLY', 'en'),
    );
  });
});

describe('platform operators: admin command and OPERATOR_ACCOUNTS', () => {
  const ctx = useTestApp();

  const flagOf = async (account: string) =>
    (await ctx.app.db.select({ on: users.isOperator }).from(users).where(eq(users.account, account)))[0]?.on;

  it('adds, lists and removes operators from the command line, audited', async () => {
    const user = await buildUser(ctx.app.db, { account: 'Ops@Example.com', name: 'Olga' });
    const out: string[] = [];
    const err: string[] = [];
    const run = (...args: string[]) =>
      runOperatorCommand(
        ctx.app.db,
        ['operator', ...args],
        (l) => out.push(l),
        (l) => err.push(l),
      );
    expect(isOperatorCommand(['operator', 'add'])).toBe(false);
    expect(isOperatorCommand(['operator', 'list', 'extra'])).toBe(false);
    expect(isOperatorCommand(['operator', 'remove', 'x@example.com'])).toBe(true);
    expect(await run('add', 'OPS@example.com')).toBe(0);
    expect(await flagOf(user.account)).toBe(true);
    expect(await run('list')).toBe(0);
    expect(out).toContain('ops@example.com  Olga');
    expect(await run('add', 'nobody@example.com')).toBe(1);
    expect(err[0]).toContain('No user has the account nobody@example.com');
    expect(await run('remove', 'ops@example.com')).toBe(0);
    expect(await flagOf(user.account)).toBe(false);
    const entries = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, PLATFORM_CHAIN), eq(auditLog.targetId, String(user.id))));
    expect(entries.map((e) => e.action)).toEqual(['operator.add', 'operator.remove']);
  });

  it('makes the accounts of OPERATOR_ACCOUNTS operators at start and reports unknown ones', async () => {
    const config = loadConfig({ OPERATOR_ACCOUNTS: ' boss@example.com, +60 12-345 6789 ,,' });
    expect(config.operatorAccounts).toEqual(['boss@example.com', '+60 12-345 6789']);
    expect(loadConfig({}).operatorAccounts).toEqual([]);
    const boss = await buildUser(ctx.app.db, { account: 'boss@example.com' });
    const unknown = await applyOperatorAccounts(ctx.app.db, config.operatorAccounts);
    expect(unknown).toEqual(['+60123456789']);
    expect(await flagOf(boss.account)).toBe(true);
    // Applying again (the next start) changes nothing and writes nothing more.
    const before = await ctx.app.db.select().from(auditLog).where(eq(auditLog.companyId, PLATFORM_CHAIN));
    await applyOperatorAccounts(ctx.app.db, config.operatorAccounts);
    expect(
      await ctx.app.db.select().from(auditLog).where(eq(auditLog.companyId, PLATFORM_CHAIN)),
    ).toHaveLength(before.length);
    const token = await login(ctx.app, boss.account);
    const info = await call<{ isOperator: boolean }>(ctx.app, '/api/user/userInfo', {}, { token });
    expect(info.body.data.isOperator).toBe(true);
  });
});
