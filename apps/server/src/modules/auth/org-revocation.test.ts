import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CALLER_CACHE_DEFAULTS } from '../../plugins/auth';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDevice, buildUser, login } from '../../test/factories';
import { departments } from '../org/org.table';
import { expectCached, powersOf, statementsOf } from './auth-test-support';

/**
 * A caller's companies, roles and department scope are cached with their session (docs/decisions.md,
 * "Caller cache"). Each change to them must show in the caller's very next call: every test first
 * proves the caller is answered from the cache (expectCached), so without the change's
 * invalidation the next call would still carry the old rights. Each test has its own company: a
 * change to one company keeps the callers loaded just after it out of the cache (settleMs), which
 * would hide a missing invalidation in the next test.
 */
describe('cached rights follow every change at once', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  /**
   * A company with departments D and E under the root, a device in each, and roles: in D viewer
   * (device:view, org:view) and reader (org:view); in E eViewer (device:view).
   */
  async function organisation() {
    const company = await buildCompany(ctx.app.db);
    const adminToken = await login(ctx.app, company.admin.account);
    const admin = async (url: string, body: unknown) =>
      (await call(ctx.app, url, body, { token: adminToken })).body;
    const [root] = await ctx.app.db.select().from(departments).where(eq(departments.companyId, company.id));
    const add = async (name: string) => {
      const { data } = await admin('/api/userOrganize/addDepartment', { parentId: String(root!.id), name });
      return data as { id: string; code: string };
    };
    const d = await add('Cold room D');
    const e = await add('Cold room E');
    const role = async (departmentId: string, name: string, tags: string[]) =>
      ((await admin('/api/role/addRole', { departmentId, name, tags })).data as { id: string }).id;
    const o = {
      companyId: company.id,
      admin,
      d: Number(d.id),
      e: Number(e.id),
      dCode: d.code,
      viewer: await role(d.id, 'Viewer', ['device:view', 'org:view']),
      reader: await role(d.id, 'Reader', ['org:view']),
      eViewer: await role(e.id, 'Viewer', ['device:view']),
      dDevice: (await buildDevice(ctx.app.db, company.id, { departmentId: Number(d.id) })).id,
      eDevice: (await buildDevice(ctx.app.db, company.id, { departmentId: Number(e.id) })).id,
      /** A member of the company in `departmentId` holding `roleId`, logged in. */
      member: async (departmentId: number, roleId: string | null) => {
        const user = await buildUser(ctx.app.db);
        await addMember(ctx.app.db, company.id, user.id, false, {
          departmentId,
          roleId: roleId === null ? null : Number(roleId),
        });
        return { id: user.id, account: user.account, token: await login(ctx.app, user.account) };
      },
    };
    return o;
  }

  const api = async (token: string, url: string, body: unknown = {}, companyId?: number) =>
    (await call(ctx.app, url, body, { token, companyId })).body;
  const seesDevice = async (token: string, id: string) =>
    (await api(token, '/api/device/deviceDetail', { id })).msgCode === 200;
  const cached = (token: string) => expectCached(ctx.app, token);
  /** What is loaded in the moments after a change is not kept (auth-cache.ts, settleMs). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, CALLER_CACHE_DEFAULTS.settleMs));

  it('a role edit: a tag taken away stops working, and a tag given works, on the next call', async () => {
    const o = await organisation();
    const role = (await o.admin('/api/role/addRole', {
      departmentId: String(o.d),
      name: 'Shifting',
      tags: ['device:view'],
    })) as { data: { id: string } };
    const m = await o.member(o.d, role.data.id);
    expect(await seesDevice(m.token, o.dDevice)).toBe(true);
    await cached(m.token);
    const edit = (tags: string[]) =>
      o.admin('/api/role/editRole', { id: role.data.id, name: 'Shifting', tags });
    expect((await edit(['org:view'])).msgCode).toBe(200);
    expect(await seesDevice(m.token, o.dDevice)).toBe(false);
    expect((await powersOf(ctx.app, m.token)).tags).toEqual(['home:view', 'org:view']);
    await settle();
    await cached(m.token);
    expect((await edit(['device:view', 'org:view'])).msgCode).toBe(200);
    expect(await seesDevice(m.token, o.dDevice)).toBe(true);
  });

  it('a role assignment', async () => {
    const o = await organisation();
    const m = await o.member(o.d, o.viewer);
    expect(await seesDevice(m.token, o.dDevice)).toBe(true);
    await cached(m.token);
    const assigned = await o.admin('/api/personnel/assignRole', { userId: String(m.id), roleId: o.reader });
    expect(assigned.msgCode).toBe(200);
    expect(await seesDevice(m.token, o.dDevice)).toBe(false);
  });

  it('a move to another department: the scope follows', async () => {
    const o = await organisation();
    const m = await o.member(o.d, o.viewer);
    expect(await seesDevice(m.token, o.dDevice)).toBe(true);
    expect(await seesDevice(m.token, o.eDevice)).toBe(false);
    await cached(m.token);
    const moved = await o.admin('/api/personnel/moveUser', {
      userId: String(m.id),
      departmentId: String(o.e),
      roleId: o.eViewer,
    });
    expect(moved.msgCode).toBe(200);
    expect(await seesDevice(m.token, o.dDevice)).toBe(false);
    expect(await seesDevice(m.token, o.eDevice)).toBe(true);
  });

  it('a removal from the company', async () => {
    const o = await organisation();
    const m = await o.member(o.d, o.viewer);
    expect((await powersOf(ctx.app, m.token, o.companyId)).msgCode).toBe(200);
    await cached(m.token);
    expect((await o.admin('/api/personnel/removeUser', { userId: String(m.id) })).msgCode).toBe(200);
    expect((await powersOf(ctx.app, m.token, o.companyId)).msgCode).toBe(500);
    expect(await seesDevice(m.token, o.dDevice)).toBe(false);
  });

  it('leaving the company', async () => {
    const o = await organisation();
    const m = await o.member(o.d, o.viewer);
    expect(await seesDevice(m.token, o.dDevice)).toBe(true);
    await cached(m.token);
    expect((await api(m.token, '/api/user/dropOutOrganize', { id: String(o.companyId) })).msgCode).toBe(200);
    expect((await powersOf(ctx.app, m.token, o.companyId)).msgCode).toBe(500);
    expect(await seesDevice(m.token, o.dDevice)).toBe(false);
  });

  it('a transfer of the person in charge: the new one gains the department administrator role, the former loses it', async () => {
    const o = await organisation();
    const first = await o.member(o.d, o.reader);
    const second = await o.member(o.d, o.reader);
    expect(await seesDevice(first.token, o.dDevice)).toBe(false);
    await cached(first.token);
    const transfer = (userId: number) =>
      o.admin('/api/userOrganize/transferLeader', { id: String(o.d), userId: String(userId) });
    expect((await transfer(first.id)).msgCode).toBe(200);
    expect(await seesDevice(first.token, o.dDevice)).toBe(true);
    expect(await seesDevice(second.token, o.dDevice)).toBe(false);
    await settle();
    await cached(first.token);
    await cached(second.token);
    expect((await transfer(second.id)).msgCode).toBe(200);
    expect(await seesDevice(first.token, o.dDevice)).toBe(false);
    expect(await seesDevice(second.token, o.dDevice)).toBe(true);
  });

  it('an approved application: the new company works on the next call', async () => {
    const o = await organisation();
    const applicant = await buildUser(ctx.app.db);
    const token = await login(ctx.app, applicant.account);
    expect((await powersOf(ctx.app, token, o.companyId)).msgCode).toBe(500);
    expect((await api(token, '/api/user/joinOrganize', { code: o.dCode })).msgCode).toBe(200);
    await cached(token);
    const pending = (await o.admin('/api/user/joinRequestList', { state: 1 })) as {
      data: { list: { id: string; userId: string }[] };
    };
    const request = pending.data.list.find((r) => r.userId === String(applicant.id))!;
    expect((await o.admin('/api/user/incomingAudit', { id: request.id, approve: true })).msgCode).toBe(200);
    expect(await powersOf(ctx.app, token, o.companyId)).toEqual({ msgCode: 200, tags: ['home:view'] });
  });

  it('a company switch and a new company: the company in scope without a header follows', async () => {
    const o = await organisation();
    const m = await o.member(o.d, o.viewer);
    const current = async () => {
      const { data } = await api(m.token, '/api/index/getUserCompanys');
      return (data as { id: string; current: boolean }[]).find((c) => c.current)?.id;
    };
    expect(await current()).toBe(String(o.companyId));
    await cached(m.token);
    const created = await api(m.token, '/api/user/createCompany', { name: 'Second Cold' });
    expect(created.msgCode).toBe(200);
    const secondId = (created.data as { id: string }).id;
    expect(await current()).toBe(secondId);
    expect((await powersOf(ctx.app, m.token)).tags).toContain('role:edit');
    await settle();
    await cached(m.token);
    const switched = await api(m.token, '/api/index/switchUserCompany', { id: String(o.companyId) });
    expect(switched.msgCode).toBe(200);
    expect(await current()).toBe(String(o.companyId));
    expect((await powersOf(ctx.app, m.token)).tags).not.toContain('role:edit');
  });

  it('deleting a role or a department reloads the company’s callers (nobody can hold what is deleted)', async () => {
    const o = await organisation();
    const m = await o.member(o.d, o.viewer);
    const powers = '/api/index/getUserPowers';
    await cached(m.token);
    const spare = (await o.admin('/api/role/addRole', {
      departmentId: String(o.d),
      name: 'Spare',
      tags: [],
    })) as {
      data: { id: string };
    };
    expect((await statementsOf(ctx.app, powers, {}, { token: m.token })).count).toBe(0);
    expect((await o.admin('/api/role/deleteRole', { id: spare.data.id })).msgCode).toBe(200);
    expect((await statementsOf(ctx.app, powers, {}, { token: m.token })).count).toBe(1);
    await settle();
    const empty = (await o.admin('/api/userOrganize/addDepartment', {
      parentId: String(o.d),
      name: 'Empty',
    })) as {
      data: { id: string };
    };
    await cached(m.token);
    expect((await o.admin('/api/userOrganize/deleteDepartment', { id: empty.data.id })).msgCode).toBe(200);
    expect((await statementsOf(ctx.app, powers, {}, { token: m.token })).count).toBe(1);
  });
});
