import type { MemberOption, MemberView, Page } from '@coldchain/contract';
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
import { alarmSettings } from '../alarms/alarms.table';
import { auditLog } from '../audit/audit.table';
import { companyMembers } from '../companies/companies.table';
import { NoticeState, notices } from '../notices/notices.table';
import { users } from '../users/users.table';
import { insertAdminRole } from './company-setup';
import { departments, devicePermissions } from './org.table';

/** root > A > A1, root > B; A's administrator and a clerk of A manage people. */
describe('personnel', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  type Person = { id: number; account: string; token: string };
  const f = {} as {
    companyId: number;
    rootId: number;
    a: number;
    a1: number;
    b: number;
    admin: Person;
    aAdmin: Person;
    aClerk: Person;
    worker: Person;
    bWorker: Person;
    aAdminRole: number;
    clerkRole: number;
    a1AdminRole: number;
    workerRole: number;
    seniorRole: number;
    bRole: number;
  };

  async function person(
    departmentId: number,
    roleId: number | null,
    fields: { name?: string; phone?: string } = {},
  ): Promise<Person> {
    const user = await buildUser(ctx.app.db, { name: fields.name });
    if (fields.phone)
      await ctx.app.db.update(users).set({ phone: fields.phone }).where(eq(users.id, user.id));
    await addMember(ctx.app.db, f.companyId, user.id, false, { departmentId, roleId });
    return { id: user.id, account: user.account, token: await login(ctx.app, user.account) };
  }
  async function membership(userId: number) {
    const [row] = await ctx.app.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, f.companyId), eq(companyMembers.userId, userId)));
    return row;
  }

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    f.companyId = company.id;
    f.admin = {
      id: company.admin.id,
      account: company.admin.account,
      token: await login(ctx.app, company.admin.account),
    };
    const [root] = await db.select().from(departments).where(eq(departments.companyId, company.id));
    f.rootId = root!.id;
    f.a = (await buildDepartment(db, company.id, { name: 'Dept A' })).id;
    f.a1 = (await buildDepartment(db, company.id, { name: 'Dept A1', parentId: f.a })).id;
    f.b = (await buildDepartment(db, company.id, { name: 'Dept B' })).id;
    f.aAdminRole = await insertAdminRole(db, company.id, f.a, [
      'device:view',
      'user:view',
      'user:edit',
      'role:view',
    ]);
    f.a1AdminRole = await insertAdminRole(db, company.id, f.a1, ['device:view', 'user:view']);
    await insertAdminRole(db, company.id, f.b, ['device:view']);
    f.clerkRole = (await buildRole(db, company.id, f.a, ['user:view', 'user:edit'], { name: 'Clerk' })).id;
    f.workerRole = (await buildRole(db, company.id, f.a1, [], { name: 'Worker' })).id;
    f.seniorRole = (await buildRole(db, company.id, f.a1, ['user:view'], { name: 'Senior' })).id;
    f.bRole = (await buildRole(db, company.id, f.b, [], { name: 'Driver' })).id;
    f.aAdmin = await person(f.a, f.aAdminRole, { name: 'Alice Admin' });
    f.aClerk = await person(f.a, f.clerkRole, { name: 'Carl Clerk' });
    f.worker = await person(f.a1, f.workerRole, { name: 'Wendy Worker', phone: '+8613800138000' });
    f.bWorker = await person(f.b, f.bRole, { name: 'Bob Driver' });
  });

  it('pages the people of the caller scope with their department, role and flags', async () => {
    const all = await call<Page<MemberView>>(
      ctx.app,
      '/api/personnel/pageUsers',
      {},
      { token: f.admin.token },
    );
    expect(all.body.data.total).toBe(5);
    expect(all.body.data.list[0]).toMatchObject({
      userId: String(f.admin.id),
      isAdmin: true,
      legalPerson: true,
      isLeader: true,
      departmentId: String(f.rootId),
      roleName: 'Administrator',
    });
    const mine = await call<Page<MemberView>>(
      ctx.app,
      '/api/personnel/pageUsers',
      {},
      { token: f.aAdmin.token },
    );
    expect(mine.body.data.list.map((m) => m.name)).toEqual(['Alice Admin', 'Carl Clerk', 'Wendy Worker']);
    const worker = mine.body.data.list[2]!;
    expect(worker).toMatchObject({
      departmentId: String(f.a1),
      departmentName: 'Dept A1',
      roleId: String(f.workerRole),
      roleName: 'Worker',
      phone: '+8613800138000',
      isAdmin: false,
      isLeader: false,
    });
    expect(worker.lastLoginTime).toBeGreaterThan(0);
  });

  it('filters by department (with or without lower ones), role and keyword over name, account and phone', async () => {
    const page = (body: object) =>
      call<Page<MemberView>>(ctx.app, '/api/personnel/pageUsers', body, { token: f.admin.token }).then((r) =>
        r.body.data.list.map((m) => m.name),
      );
    expect(await page({ departmentId: String(f.a) })).toEqual(['Alice Admin', 'Carl Clerk', 'Wendy Worker']);
    expect(await page({ departmentId: String(f.a), includeChildren: false })).toEqual([
      'Alice Admin',
      'Carl Clerk',
    ]);
    expect(await page({ roleId: String(f.clerkRole) })).toEqual(['Carl Clerk']);
    expect(await page({ keyword: 'wendy' })).toEqual(['Wendy Worker']);
    expect(await page({ keyword: '138001' })).toEqual(['Wendy Worker']);
    expect(await page({ keyword: f.bWorker.account.slice(0, 12) })).toEqual(['Bob Driver']);
    expect(await page({ keyword: '%' })).toEqual([]);
    const outside = await call(
      ctx.app,
      '/api/personnel/pageUsers',
      { departmentId: String(f.b) },
      { token: f.aAdmin.token },
    );
    expect(outside.body.msgContent).toBe('No permission for this service or operation');
  });

  it('offers any member the names of the people in their scope for pickers', async () => {
    const nobody = await person(f.a1, null, { name: 'Nina New' });
    const options = await call<MemberOption[]>(
      ctx.app,
      '/api/personnel/memberOptions',
      {},
      { token: nobody.token },
    );
    expect(options.body.msgCode).toBe(200);
    expect(options.body.data.map((o) => o.name)).toEqual(['Nina New', 'Wendy Worker']);
    const all = await call<MemberOption[]>(
      ctx.app,
      '/api/personnel/memberOptions',
      {},
      { token: f.admin.token },
    );
    expect(all.body.data).toContainEqual({ id: String(f.bWorker.id), name: 'Bob Driver' });
    await ctx.app.db.delete(companyMembers).where(eq(companyMembers.userId, nobody.id));
  });

  it('assigns a role of the person’s own department, audited', async () => {
    const done = await call(
      ctx.app,
      '/api/personnel/assignRole',
      { userId: String(f.worker.id), roleId: String(f.seniorRole) },
      { token: f.aAdmin.token },
    );
    expect(done.body).toMatchObject({ msgCode: 200, msgContent: 'Role changed' });
    expect((await membership(f.worker.id))!.roleId).toBe(f.seniorRole);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.assignRole'), eq(auditLog.targetId, String(f.worker.id))));
    expect(entry).toMatchObject({ userId: f.aAdmin.id, after: { roleId: f.seniorRole, roleName: 'Senior' } });

    const wrongDept = await call(
      ctx.app,
      '/api/personnel/assignRole',
      { userId: String(f.worker.id), roleId: String(f.clerkRole) },
      { token: f.aAdmin.token, language: 'cn' },
    );
    expect(wrongDept.body.msgContent).toBe('角色：所选角色必须属于该人员所在的部门');
    expect((await membership(f.worker.id))!.roleId).toBe(f.seniorRole);
  });

  it('refuses changing yourself, the company administrator, people outside the scope or above you', async () => {
    const assign = (token: string, userId: number, roleId: number, language: 'en' | 'cn' = 'en') =>
      call(
        ctx.app,
        '/api/personnel/assignRole',
        { userId: String(userId), roleId: String(roleId) },
        { token, language },
      ).then((r) => r.body.msgContent);
    expect(await assign(f.aAdmin.token, f.aAdmin.id, f.clerkRole)).toBe(
      'You cannot change your own role or department, or remove yourself',
    );
    expect(await assign(f.aAdmin.token, f.admin.id, f.clerkRole)).toBe(
      'No permission for this service or operation',
    );
    const rootId = f.rootId;
    const rootRole = (await buildRole(ctx.app.db, f.companyId, rootId, [], { name: 'Root staff' })).id;
    expect(await assign(f.admin.token, f.admin.id, rootRole)).toBe(
      'You cannot change your own role or department, or remove yourself',
    );
    const secondAdmin = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, secondAdmin.id, true);
    expect(await assign(f.admin.token, secondAdmin.id, rootRole, 'cn')).toBe('不能更改或移除企业管理员');
    expect(await assign(f.aAdmin.token, f.bWorker.id, f.bRole)).toBe(
      'No permission for this service or operation',
    );
    const stranger = await buildUser(ctx.app.db);
    expect(await assign(f.admin.token, stranger.id, rootRole)).toBe(
      'This person is not a member of the company',
    );
    // The clerk lacks device:view, which the administrator of A holds: they can neither demote
    // that administrator nor hand out A1's administrator role.
    expect(await assign(f.aClerk.token, f.aAdmin.id, f.clerkRole)).toBe(
      'This person holds permissions you do not hold, so you cannot change them',
    );
    expect(await assign(f.aClerk.token, f.worker.id, f.a1AdminRole)).toBe(
      'Role: this role holds permissions you do not hold, so you cannot give it',
    );
    expect(await assign(f.aClerk.token, f.worker.id, 999_999_999)).toBe('The role does not exist');
    expect((await membership(f.aAdmin.id))!.roleId).toBe(f.aAdminRole);
    expect((await membership(f.worker.id))!.roleId).toBe(f.seniorRole);
    await ctx.app.db.delete(companyMembers).where(eq(companyMembers.userId, secondAdmin.id));
  });

  it('moves a person to another department of the scope, with a role of it or none', async () => {
    const move = (body: object, token = f.aAdmin.token) =>
      call(ctx.app, '/api/personnel/moveUser', body, { token }).then((r) => r.body.msgContent);
    expect(await move({ userId: String(f.worker.id), departmentId: String(f.b) })).toBe(
      'No permission for this service or operation',
    );
    expect(
      await move({ userId: String(f.worker.id), departmentId: String(f.a), roleId: String(f.workerRole) }),
    ).toBe("Role: the role must belong to the person's department");
    expect(
      await move({ userId: String(f.worker.id), departmentId: String(f.a), roleId: String(f.clerkRole) }),
    ).toBe('Department changed');
    expect(await membership(f.worker.id)).toMatchObject({ departmentId: f.a, roleId: f.clerkRole });
    expect(await move({ userId: String(f.worker.id), departmentId: String(f.a1) })).toBe(
      'Department changed',
    );
    expect(await membership(f.worker.id)).toMatchObject({ departmentId: f.a1, roleId: null });
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.move'), eq(auditLog.targetId, String(f.worker.id))));
    expect(entry!.before).toEqual({ departmentId: f.a1, roleId: f.seniorRole });

    // The person in charge of a department stays there until they transfer it.
    await ctx.app.db.update(departments).set({ leaderUserId: f.worker.id }).where(eq(departments.id, f.a1));
    expect(await move({ userId: String(f.worker.id), departmentId: String(f.a) })).toBe(
      'Wendy Worker is the person in charge of "Dept A1"; transfer that first',
    );
    await ctx.app.db.update(departments).set({ leaderUserId: null }).where(eq(departments.id, f.a1));
    await call(
      ctx.app,
      '/api/personnel/assignRole',
      { userId: String(f.worker.id), roleId: String(f.workerRole) },
      { token: f.aAdmin.token },
    );
  });

  it('removes a person from the company: membership, device grants and notifier places of that company only', async () => {
    const db = ctx.app.db;
    const leaving = await person(f.a1, f.workerRole, { name: 'Leo Leaving' });
    const device = await buildDevice(db, f.companyId, { departmentId: f.a1 });
    await db
      .insert(devicePermissions)
      .values({ companyId: f.companyId, userId: leaving.id, deviceId: Number(device.id) });
    const [setting] = await db
      .insert(alarmSettings)
      .values({
        companyId: f.companyId,
        carrier: 'device',
        targetId: Number(device.id),
        deviceId: Number(device.id),
        level: 1,
        alarmType: 'offline',
        repeat: 1,
        notifierIds: [f.aAdmin.id, leaving.id],
      })
      .returning();
    // Their membership elsewhere is untouched.
    const other = await buildCompany(db);
    await addMember(db, other.id, leaving.id);
    const otherDevice = await buildDevice(db, other.id);
    await db
      .insert(devicePermissions)
      .values({ companyId: other.id, userId: leaving.id, deviceId: Number(otherDevice.id) });
    const [otherSetting] = await db
      .insert(alarmSettings)
      .values({
        companyId: other.id,
        carrier: 'device',
        targetId: Number(otherDevice.id),
        deviceId: Number(otherDevice.id),
        level: 1,
        alarmType: 'offline',
        repeat: 1,
        notifierIds: [leaving.id],
      })
      .returning();

    const [notice] = await db
      .insert(notices)
      .values({
        companyId: f.companyId,
        userId: leaving.id,
        kind: 'system',
        title: { en: 't', cn: 't' },
        content: { en: 'c', cn: 'c' },
      })
      .returning();
    await db.update(users).set({ lastCompanyId: f.companyId }).where(eq(users.id, leaving.id));

    const removed = await call(
      ctx.app,
      '/api/personnel/removeUser',
      { userId: String(leaving.id) },
      { token: f.aAdmin.token },
    );
    expect(removed.body).toMatchObject({ msgCode: 200, msgContent: 'Removed from the company' });
    expect(await membership(leaving.id)).toBeUndefined();
    expect(await db.select().from(devicePermissions).where(eq(devicePermissions.userId, leaving.id))).toEqual(
      [expect.objectContaining({ companyId: other.id })],
    );
    const [after] = await db.select().from(alarmSettings).where(eq(alarmSettings.id, setting!.id));
    expect(after!.notifierIds).toEqual([f.aAdmin.id]);
    const [otherAfter] = await db.select().from(alarmSettings).where(eq(alarmSettings.id, otherSetting!.id));
    expect(otherAfter!.notifierIds).toEqual([leaving.id]);
    const [noticeAfter] = await db.select().from(notices).where(eq(notices.id, notice!.id));
    expect(noticeAfter!.state).toBe(NoticeState.Invalid);
    const [userAfter] = await db.select().from(users).where(eq(users.id, leaving.id));
    expect(userAfter!.lastCompanyId).toBeNull();
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.remove'), eq(auditLog.targetId, String(leaving.id))));
    expect(entry).toMatchObject({
      companyId: f.companyId,
      before: { name: 'Leo Leaving', departmentId: f.a1 },
    });

    // Their session lives on, but the company is no longer theirs.
    const asCompany = await call(
      ctx.app,
      '/api/personnel/memberOptions',
      {},
      { token: leaving.token, companyId: f.companyId },
    );
    expect(asCompany.body.msgContent).toBe('No permission for this service or operation');
    const info = await call(ctx.app, '/api/user/userInfo', {}, { token: leaving.token });
    expect(info.body.msgCode).toBe(200);
  });

  it('never removes yourself, the company administrator or the legal person', async () => {
    const remove = (token: string, userId: number, language: 'en' | 'cn' = 'en') =>
      call(ctx.app, '/api/personnel/removeUser', { userId: String(userId) }, { token, language }).then(
        (r) => r.body.msgContent,
      );
    expect(await remove(f.admin.token, f.admin.id)).toBe(
      'You cannot change your own role or department, or remove yourself',
    );
    const secondAdmin = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, secondAdmin.id, true);
    expect(await remove(f.admin.token, secondAdmin.id)).toBe(
      'The company administrator cannot be changed or removed',
    );
    const legal = await person(f.a1, f.workerRole);
    await ctx.app.db
      .update(companyMembers)
      .set({ legalPerson: true })
      .where(and(eq(companyMembers.companyId, f.companyId), eq(companyMembers.userId, legal.id)));
    expect(await remove(f.aAdmin.token, legal.id, 'cn')).toBe('不能移除企业法人');
    expect(await remove(f.aAdmin.token, f.bWorker.id)).toBe('No permission for this service or operation');
    expect(await membership(legal.id)).toBeDefined();
    expect(await membership(f.bWorker.id)).toBeDefined();
    expect(await membership(secondAdmin.id)).toBeDefined();
  });
});
