import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildUser,
  login,
} from '../../test/factories';
import { alarmSettings } from '../alarms/alarms.table';
import { auditLog } from '../audit/audit.table';
import { companyMembers } from '../companies/companies.table';
import { NoticeState, notices } from '../notices/notices.table';
import { insertAdminRole } from './company-setup';
import { departments, devicePermissions } from './org.table';
import { departmentNoticeKind } from './org-notices';

/** root > A > A1; A's person in charge hands over to another member. */
describe('transferLeader', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const f = {} as {
    companyId: number;
    rootId: number;
    a: number;
    a1: number;
    b: number;
    aAdminRole: number;
    admin: string;
    formerId: number;
    newId: number;
    deviceA1: number;
    deviceB: number;
    settingA1: number;
    settingB: number;
  };

  async function member(departmentId: number, roleId: number | null) {
    const user = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, user.id, false, { departmentId, roleId });
    return user;
  }
  async function memberRow(userId: number) {
    const [row] = await ctx.app.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, f.companyId), eq(companyMembers.userId, userId)));
    return row!;
  }
  async function setting(deviceId: number, notifierIds: number[]) {
    const [row] = await ctx.app.db
      .insert(alarmSettings)
      .values({
        companyId: f.companyId,
        carrier: 'device',
        targetId: deviceId,
        deviceId,
        level: 1,
        alarmType: 'offline',
        repeat: 1,
        notifierIds,
      })
      .returning({ id: alarmSettings.id });
    return row!.id;
  }

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    f.companyId = company.id;
    f.admin = await login(ctx.app, company.admin.account);
    const [root] = await db.select().from(departments).where(eq(departments.companyId, company.id));
    f.rootId = root!.id;
    f.a = (await buildDepartment(db, company.id, { name: 'Dept A' })).id;
    f.a1 = (await buildDepartment(db, company.id, { name: 'Dept A1', parentId: f.a })).id;
    f.b = (await buildDepartment(db, company.id, { name: 'Dept B' })).id;
    f.aAdminRole = await insertAdminRole(db, company.id, f.a, ['org:view']);
    f.formerId = (await member(f.a, f.aAdminRole)).id;
    await db.update(departments).set({ leaderUserId: f.formerId }).where(eq(departments.id, f.a));
    f.newId = (await member(f.a1, null)).id;
    f.deviceA1 = Number((await buildDevice(db, company.id, { departmentId: f.a1 })).id);
    f.deviceB = Number((await buildDevice(db, company.id, { departmentId: f.b })).id);
    f.settingA1 = await setting(f.deviceA1, [f.formerId, company.admin.id]);
    f.settingB = await setting(f.deviceB, [f.formerId]);
    await db.insert(devicePermissions).values([
      { companyId: company.id, userId: f.formerId, deviceId: f.deviceA1, canEdit: true },
      { companyId: company.id, userId: f.formerId, deviceId: f.deviceB, canEdit: false },
    ]);
    await db.insert(notices).values([
      {
        companyId: company.id,
        userId: f.formerId,
        kind: departmentNoticeKind(f.a1, 'join-request'),
        title: { en: 'x', cn: 'x' },
        content: { en: 'x', cn: 'x' },
      },
      {
        companyId: company.id,
        userId: f.formerId,
        kind: departmentNoticeKind(f.b, 'join-request'),
        title: { en: 'y', cn: 'y' },
        content: { en: 'y', cn: 'y' },
      },
    ]);
  });

  it('refuses a new person in charge from another company', async () => {
    const foreign = await buildCompany(ctx.app.db);
    const { body } = await call(
      ctx.app,
      '/api/userOrganize/transferLeader',
      { id: String(f.a), userId: String(foreign.admin.id) },
      { token: f.admin },
    );
    expect(body.msgContent).toBe('The person in charge must be a member of your departments');
    // And a foreign administrator cannot hand our department to anyone.
    const foreignToken = await login(ctx.app, foreign.admin.account);
    const byForeign = await call(
      ctx.app,
      '/api/userOrganize/transferLeader',
      { id: String(f.a), userId: String(foreign.admin.id) },
      { token: foreignToken },
    );
    expect(byForeign.body.msgContent).toBe('The department does not exist');
    const [dept] = await ctx.app.db.select().from(departments).where(eq(departments.id, f.a));
    expect(dept!.leaderUserId).toBe(f.formerId);
  });

  it('hands the department over and strips the former holder of its settings and notices', async () => {
    const { body } = await call(
      ctx.app,
      '/api/userOrganize/transferLeader',
      { id: String(f.a), userId: String(f.newId) },
      { token: f.admin },
    );
    expect(body.msgCode).toBe(200);
    expect(body.msgContent).toBe('Person in charge transferred');

    const [dept] = await ctx.app.db.select().from(departments).where(eq(departments.id, f.a));
    expect(dept!.leaderUserId).toBe(f.newId);
    expect(await memberRow(f.newId)).toMatchObject({ departmentId: f.a, roleId: f.aAdminRole });
    // The former holder leaves for the parent department, without a role.
    expect(await memberRow(f.formerId)).toMatchObject({ departmentId: f.rootId, roleId: null });

    const settings = await ctx.app.db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.companyId, f.companyId));
    const byId = new Map(settings.map((s) => [s.id, s.notifierIds]));
    expect(byId.get(f.settingA1)).not.toContain(f.formerId);
    expect(byId.get(f.settingA1)).toHaveLength(1);
    // Devices outside the department keep them.
    expect(byId.get(f.settingB)).toEqual([f.formerId]);

    const grants = await ctx.app.db
      .select()
      .from(devicePermissions)
      .where(eq(devicePermissions.userId, f.formerId));
    expect(grants.map((g) => g.deviceId)).toEqual([f.deviceB]);

    const mine = await ctx.app.db.select().from(notices).where(eq(notices.userId, f.formerId));
    const state = new Map(mine.map((n) => [n.kind, n.state]));
    expect(state.get(departmentNoticeKind(f.a1, 'join-request'))).toBe(NoticeState.Invalid);
    expect(state.get(departmentNoticeKind(f.b, 'join-request'))).toBe(NoticeState.Unread);

    const [audit] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'department.transferLeader'), eq(auditLog.targetId, String(f.a))));
    expect(audit!.before).toEqual({ leaderUserId: f.formerId });
    expect(audit!.after).toEqual({ leaderUserId: f.newId });
  });

  it('says so when the person is already in charge', async () => {
    const { body } = await call(
      ctx.app,
      '/api/userOrganize/transferLeader',
      { id: String(f.a), userId: String(f.newId) },
      { token: f.admin, language: 'cn' },
    );
    expect(body.msgContent).toBe('该成员已是该部门负责人');
  });
});
