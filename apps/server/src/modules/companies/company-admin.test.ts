import type { ChartStatistics, CompanyDataInfo } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
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
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { auditLog } from '../audit/audit.table';
import { departments } from '../org/org.table';
import { users } from '../users/users.table';
import { companies, companyMembers } from './companies.table';

describe('company management', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const f = {} as {
    companyId: number;
    rootId: number;
    a: number;
    b: number;
    adminId: number;
    admin: string;
    deviceA: number;
    deviceB: number;
  };

  async function member(departmentId: number, roleId: number | null = null, isAdmin = false) {
    const user = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, user.id, isAdmin, { departmentId, roleId });
    return { user, token: await login(ctx.app, user.account) };
  }
  let alarmSeq = 0;
  async function alarm(deviceId: number, at: Date, resolveState = 1, resolveTime: Date | null = null) {
    alarmSeq += 1;
    await ctx.app.db.insert(alarmRecords).values({
      companyId: f.companyId,
      deviceId,
      alarmType: 'offline',
      level: 1,
      alarmTime: at,
      excursionStart: at,
      dedupeKey: `test:${alarmSeq}`,
      content: { en: 'x', cn: 'x' },
      resolveState,
      resolveTime,
    });
  }

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db, { name: 'Acme Cold' });
    f.companyId = company.id;
    f.adminId = company.admin.id;
    f.admin = await login(ctx.app, company.admin.account);
    const [root] = await db.select().from(departments).where(eq(departments.companyId, company.id));
    f.rootId = root!.id;
    f.a = (await buildDepartment(db, company.id, { name: 'Dept A' })).id;
    f.b = (await buildDepartment(db, company.id, { name: 'Dept B' })).id;
    f.deviceA = Number((await buildDevice(db, company.id, { departmentId: f.a })).id);
    f.deviceB = Number((await buildDevice(db, company.id, { departmentId: f.b })).id);
  });

  describe('changeOrganizeName', () => {
    it('renames the company and its root department, audited', async () => {
      const { body } = await call(
        ctx.app,
        '/api/user/changeOrganizeName',
        { name: 'Acme Frost' },
        { token: f.admin },
      );
      expect(body.msgContent).toBe('Company name changed');
      const [company] = await ctx.app.db.select().from(companies).where(eq(companies.id, f.companyId));
      const [root] = await ctx.app.db.select().from(departments).where(eq(departments.id, f.rootId));
      expect(company!.name).toBe('Acme Frost');
      expect(root!.name).toBe('Acme Frost');
      const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'company.rename'));
      expect(audit!.before).toEqual({ name: 'Acme Cold' });
    });

    it('is for the company administrator only, and checks the name', async () => {
      const editor = await member(
        f.rootId,
        (await buildRole(ctx.app.db, f.companyId, f.rootId, ['org:edit'])).id,
      );
      const { body } = await call(
        ctx.app,
        '/api/user/changeOrganizeName',
        { name: 'Taken Over' },
        { token: editor.token },
      );
      expect(body.msgContent).toBe('Only the company administrator can do this');
      const bad = await call(
        ctx.app,
        '/api/user/changeOrganizeName',
        { name: 'X' },
        { token: f.admin, language: 'cn' },
      );
      expect(bad.body.msgContent).toBe('名称须为 2-20 个字符');
      const [company] = await ctx.app.db.select().from(companies).where(eq(companies.id, f.companyId));
      expect(company!.name).toBe('Acme Frost');
    });
  });

  describe('dropOutOrganize', () => {
    it('refuses the legal person', async () => {
      const { body } = await call(
        ctx.app,
        '/api/user/dropOutOrganize',
        { id: String(f.companyId) },
        { token: f.admin },
      );
      expect(body.msgContent).toBe('The legal person of the company cannot leave it');
    });

    it('refuses the last administrator', async () => {
      const other = await buildCompany(ctx.app.db);
      await ctx.app.db
        .update(companyMembers)
        .set({ legalPerson: false })
        .where(eq(companyMembers.companyId, other.id));
      const token = await login(ctx.app, other.admin.account);
      const { body } = await call(ctx.app, '/api/user/dropOutOrganize', { id: String(other.id) }, { token });
      expect(body.msgContent).toBe(
        'You are the last administrator of the company; make someone else administrator before leaving',
      );
    });

    it('refuses a company one does not belong to', async () => {
      const other = await buildCompany(ctx.app.db);
      const { body } = await call(
        ctx.app,
        '/api/user/dropOutOrganize',
        { id: String(other.id) },
        { token: f.admin },
      );
      expect(body.msgContent).toBe('No permission for this service or operation');
    });

    it('lets a member leave: duties end and the current company moves on', async () => {
      const leaver = await member(f.a);
      await ctx.app.db
        .update(departments)
        .set({ leaderUserId: leaver.user.id })
        .where(eq(departments.id, f.a));
      await ctx.app.db.insert(alarmSettings).values({
        companyId: f.companyId,
        carrier: 'device',
        targetId: f.deviceA,
        deviceId: f.deviceA,
        level: 1,
        alarmType: 'offline',
        repeat: 1,
        notifierIds: [leaver.user.id, f.adminId],
      });
      const second = await buildCompany(ctx.app.db);
      await ctx.app.db
        .insert(companyMembers)
        .values({ companyId: second.id, userId: leaver.user.id, joinedAt: new Date(Date.now() - 1000) });
      await ctx.app.db.update(users).set({ lastCompanyId: f.companyId }).where(eq(users.id, leaver.user.id));

      const { body } = await call(
        ctx.app,
        '/api/user/dropOutOrganize',
        { id: String(f.companyId) },
        { token: leaver.token },
      );
      expect(body.msgContent).toBe('You have left the company');
      const [row] = await ctx.app.db
        .select()
        .from(companyMembers)
        .where(and(eq(companyMembers.companyId, f.companyId), eq(companyMembers.userId, leaver.user.id)));
      expect(row).toBeUndefined();
      const [user] = await ctx.app.db.select().from(users).where(eq(users.id, leaver.user.id));
      expect(user!.lastCompanyId).toBe(second.id);
      const [dept] = await ctx.app.db.select().from(departments).where(eq(departments.id, f.a));
      expect(dept!.leaderUserId).toBeNull();
      const [setting] = await ctx.app.db
        .select()
        .from(alarmSettings)
        // The device's own default `abnormal` setting (alarm-default-settings.ts) is not this one.
        .where(and(eq(alarmSettings.deviceId, f.deviceA), eq(alarmSettings.alarmType, 'offline')));
      expect(setting!.notifierIds).toEqual([f.adminId]);
      const [audit] = await ctx.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'member.leave'), eq(auditLog.targetId, String(leaver.user.id))));
      expect(audit).toBeDefined();
    });

    it('leaves the current company null when it was the only one', async () => {
      const leaver = await member(f.b);
      await ctx.app.db.update(users).set({ lastCompanyId: f.companyId }).where(eq(users.id, leaver.user.id));
      await call(ctx.app, '/api/user/dropOutOrganize', { id: String(f.companyId) }, { token: leaver.token });
      const [user] = await ctx.app.db.select().from(users).where(eq(users.id, leaver.user.id));
      expect(user!.lastCompanyId).toBeNull();
    });

    it('lets an administrator leave when another remains', async () => {
      const second = await member(f.rootId, null, true);
      const { body } = await call(
        ctx.app,
        '/api/user/dropOutOrganize',
        { id: String(f.companyId) },
        { token: second.token },
      );
      expect(body.msgCode).toBe(200);
    });
  });

  describe('companyDataInfo and indexChartForStatistics', () => {
    const DAY = 24 * 3600_000;
    beforeAll(async () => {
      const now = Date.now();
      await alarm(f.deviceA, new Date(now - 1000));
      await alarm(f.deviceB, new Date(now - 1000), 3, new Date(now - 500));
      await alarm(f.deviceA, new Date(now - 2 * DAY), 1);
      await alarm(f.deviceA, new Date(now - 40 * DAY), 1);
    });

    it('counts the whole company for the administrator', async () => {
      const { body } = await call<CompanyDataInfo>(
        ctx.app,
        '/api/userOrganize/companyDataInfo',
        {},
        { token: f.admin },
      );
      expect(body.data).toMatchObject({
        companyId: String(f.companyId),
        companyName: 'Acme Frost',
        departmentCount: 3,
        deviceCount: 2,
        pendingAlarms: 3,
      });
      expect(body.data.alarmsToday).toBeGreaterThanOrEqual(1);
      expect(body.data.deviceStates['4']).toBe(2);
    });

    it('counts only the devices a department member may see, and nothing without the rights', async () => {
      const role = await buildRole(ctx.app.db, f.companyId, f.a, ['device:view', 'alarm:view']);
      const inA = await member(f.a, role.id);
      const { body } = await call<CompanyDataInfo>(
        ctx.app,
        '/api/userOrganize/companyDataInfo',
        {},
        { token: inA.token },
      );
      expect(body.data).toMatchObject({ departmentCount: 1, deviceCount: 1, pendingAlarms: 3 });
      const noRole = await member(f.a);
      const bare = await call<CompanyDataInfo>(
        ctx.app,
        '/api/userOrganize/companyDataInfo',
        {},
        { token: noRole.token },
      );
      expect(bare.body.data).toMatchObject({ deviceCount: 0, alarmsToday: 0, pendingAlarms: 0 });
    });

    it('gives alarms and resolutions per UTC day, oldest first, zero-filled', async () => {
      const { body } = await call<ChartStatistics>(
        ctx.app,
        '/api/userOrganize/indexChartForStatistics',
        { days: 7 },
        { token: f.admin },
      );
      expect(body.data.days).toHaveLength(7);
      const today = new Date().toISOString().slice(0, 10);
      const twoDaysAgo = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
      expect(body.data.days[6]!.date).toBe(today);
      const byDate = new Map(body.data.days.map((d) => [d.date, d]));
      const total = body.data.days.reduce((n, d) => n + d.alarms, 0);
      expect(total).toBe(3);
      expect(byDate.get(twoDaysAgo)!.alarms).toBeGreaterThanOrEqual(1);
      expect(body.data.days.reduce((n, d) => n + d.resolved, 0)).toBe(1);
      const bad = await call(
        ctx.app,
        '/api/userOrganize/indexChartForStatistics',
        { days: 500 },
        { token: f.admin },
      );
      expect(bad.body.msgCode).toBe(500);
      expect(bad.body.msgContent).toContain('Days');
    });
  });
});
