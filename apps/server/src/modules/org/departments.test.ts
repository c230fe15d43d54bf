import type { DepartmentDetail, DepartmentNode } from '@coldchain/contract';
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
import { auditLog } from '../audit/audit.table';
import { companies, companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { insertAdminRole } from './company-setup';
import { departments, roles } from './org.table';

/** A company with root > A > A1 and root > B, plus a foreign company. */
describe('departments', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const f = {} as {
    companyId: number;
    rootId: number;
    a: number;
    a1: number;
    b: number;
    aAdminRole: number;
    admin: string;
    adminId: number;
    aEditor: string;
    aEditorId: number;
    aViewerNoRole: string;
    foreignCompanyId: number;
    foreignDept: number;
    foreignAdmin: string;
  };
  const A_ADMIN_TAGS = ['org:view', 'org:edit', 'device:view', 'user:view'];

  async function member(departmentId: number, roleId: number | null, companyId = f.companyId) {
    const user = await buildUser(ctx.app.db, { name: 'Member Person' });
    await addMember(ctx.app.db, companyId, user.id, false, { departmentId, roleId });
    return { user, token: await login(ctx.app, user.account) };
  }
  async function memberRow(userId: number) {
    const [row] = await ctx.app.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, f.companyId), eq(companyMembers.userId, userId)));
    return row;
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
    f.a1 = (await buildDepartment(db, company.id, { name: 'Dept A1', parentId: f.a })).id;
    f.b = (await buildDepartment(db, company.id, { name: 'Dept B' })).id;
    f.aAdminRole = await insertAdminRole(db, company.id, f.a, A_ADMIN_TAGS);
    const editor = await member(f.a, f.aAdminRole);
    f.aEditor = editor.token;
    f.aEditorId = editor.user.id;
    f.aViewerNoRole = (await member(f.a1, null)).token;
    await buildDevice(db, company.id, { departmentId: f.a1 });

    const foreign = await buildCompany(db, { name: 'Other Co' });
    f.foreignCompanyId = foreign.id;
    f.foreignAdmin = await login(ctx.app, foreign.admin.account);
    f.foreignDept = (await buildDepartment(db, foreign.id, { name: 'Foreign' })).id;
  });

  describe('userOrganizeList', () => {
    it('gives the administrator the whole tree with counts and the root as pid 0', async () => {
      const { body } = await call<DepartmentNode[]>(
        ctx.app,
        '/api/user/userOrganizeList',
        {},
        { token: f.admin },
      );
      expect(body.msgCode).toBe(200);
      expect(body.data).toHaveLength(1);
      const root = body.data[0]!;
      expect(root).toMatchObject({
        id: String(f.rootId),
        pid: '0',
        name: 'Acme Cold',
        level: 1,
        leaderName: 'Company Admin',
      });
      expect(root.memberCount).toBe(1);
      const a = root.children.find((c) => c.id === String(f.a))!;
      expect(a).toMatchObject({ pid: String(f.rootId), level: 2, memberCount: 1, subtreeDeviceCount: 1 });
      expect(a.children[0]).toMatchObject({ id: String(f.a1), deviceCount: 1, memberCount: 1 });
      expect(root.children.map((c) => c.name).sort()).toEqual(['Dept A', 'Dept B']);
      expect(root.code).toMatch(/^\d{12}$/);
    });

    it('counts devices filed in a department and in its subtree, the root with the unfiled ones', async () => {
      const db = ctx.app.db;
      const company = await buildCompany(db, { name: 'Count Co' });
      const token = await login(ctx.app, company.admin.account);
      const top = (await buildDepartment(db, company.id, { name: 'Top' })).id;
      const sub = (await buildDepartment(db, company.id, { name: 'Sub', parentId: top })).id;
      const side = (await buildDepartment(db, company.id, { name: 'Side' })).id;
      await buildDevice(db, company.id, { departmentId: sub });
      await buildDevice(db, company.id, { departmentId: sub });
      await buildDevice(db, company.id, { departmentId: top });
      // Filed in no department (devices added before addDevice filed them in the top department).
      const unfiled = await buildDevice(db, company.id);
      await db
        .update(devices)
        .set({ departmentId: null })
        .where(eq(devices.id, Number(unfiled.id)));
      // Another company's devices, filed and unfiled, count nowhere here.
      await buildDevice(db, f.foreignCompanyId);
      await buildDevice(db, f.foreignCompanyId, { departmentId: f.foreignDept });

      const { body } = await call<DepartmentNode[]>(ctx.app, '/api/user/userOrganizeList', {}, { token });
      const root = body.data[0]!;
      const byName = new Map(root.children.map((c) => [c.name, c]));
      expect(root).toMatchObject({ deviceCount: 0, subtreeDeviceCount: 4 });
      expect(byName.get('Top')).toMatchObject({ deviceCount: 1, subtreeDeviceCount: 3 });
      expect(byName.get('Top')?.children[0]).toMatchObject({
        name: 'Sub',
        deviceCount: 2,
        subtreeDeviceCount: 2,
      });
      expect(byName.get('Side')).toMatchObject({ id: String(side), deviceCount: 0, subtreeDeviceCount: 0 });

      // The device list filtered by a department still shows its own devices only.
      const filtered = await call<{ total: number }>(
        ctx.app,
        '/api/device/pageDevices',
        { pageNum: 1, pageSize: 50, departmentId: String(top) },
        { token },
      );
      expect(filtered.body.data.total).toBe(1);

      const detail = await call<DepartmentDetail>(
        ctx.app,
        '/api/user/userOrganizeInfo',
        { id: String(top) },
        { token },
      );
      expect(detail.body.data).toMatchObject({ deviceCount: 1, subtreeDeviceCount: 3 });
    });

    it('shows a sub-department member only their subtree, not the parent or siblings', async () => {
      const { body } = await call<DepartmentNode[]>(
        ctx.app,
        '/api/user/userOrganizeList',
        {},
        { token: f.aEditor },
      );
      expect(body.data.map((n) => n.id)).toEqual([String(f.a)]);
      expect(body.data[0]!.children.map((n) => n.id)).toEqual([String(f.a1)]);
    });

    it('needs org:view', async () => {
      const { body } = await call(ctx.app, '/api/user/userOrganizeList', {}, { token: f.aViewerNoRole });
      expect(body.msgCode).toBe(500);
      expect(body.msgContent).toBe('No permission for this service or operation');
    });
  });

  describe('userOrganizeInfo and myDepartment', () => {
    it('gives the detail of a department in scope', async () => {
      const { body } = await call<DepartmentDetail>(
        ctx.app,
        '/api/user/userOrganizeInfo',
        { id: String(f.a1) },
        { token: f.aEditor },
      );
      expect(body.data).toMatchObject({
        name: 'Dept A1',
        parentName: 'Dept A',
        companyName: 'Acme Cold',
        editable: true,
      });
    });

    it('refuses the parent department to a member of a sub-department', async () => {
      const { body } = await call(
        ctx.app,
        '/api/user/userOrganizeInfo',
        { id: String(f.rootId) },
        { token: f.aEditor },
      );
      expect(body.msgCode).toBe(500);
      expect(body.msgContent).toBe('The department does not exist');
      expect(body.data).toBeNull();
    });

    it('gives nothing about a foreign company department', async () => {
      const { body } = await call(
        ctx.app,
        '/api/user/userOrganizeInfo',
        { id: String(f.foreignDept) },
        { token: f.admin },
      );
      expect(body.msgContent).toBe('The department does not exist');
      const cn = await call(
        ctx.app,
        '/api/user/userOrganizeInfo',
        { id: String(f.foreignDept) },
        { token: f.admin, language: 'cn' },
      );
      expect(cn.body.msgContent).toBe('部门不存在');
    });

    it('lets a member without a role see their own department', async () => {
      const { body } = await call<DepartmentDetail>(
        ctx.app,
        '/api/userOrganize/myDepartment',
        {},
        { token: f.aViewerNoRole },
      );
      expect(body.data).toMatchObject({ id: String(f.a1), name: 'Dept A1', editable: false });
    });
  });

  describe('addDepartment', () => {
    it('adds a department one level down with a 12-digit code and an admin role capped by the parent', async () => {
      const { body } = await call<{ id: string; code: string }>(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.a), name: 'Cold Room', address: 'Hall 2' },
        { token: f.aEditor },
      );
      expect(body.msgCode).toBe(200);
      expect(body.msgContent).toBe('Department added');
      expect(body.data.code).toMatch(/^\d{12}$/);
      const [row] = await ctx.app.db
        .select()
        .from(departments)
        .where(eq(departments.id, Number(body.data.id)));
      expect(row).toMatchObject({ parentId: f.a, level: 3, name: 'Cold Room', address: 'Hall 2' });
      expect(row!.path).toMatch(new RegExp(`/${f.a}/${row!.id}/$`));
      const [role] = await ctx.app.db.select().from(roles).where(eq(roles.departmentId, row!.id));
      expect(role!.isDepartmentAdmin).toBe(true);
      expect([...role!.tags].sort()).toEqual([...A_ADMIN_TAGS].sort());
      const [audit] = await ctx.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'department.add'), eq(auditLog.targetId, body.data.id)));
      expect(audit).toBeDefined();
    });

    it('moves the given person in charge into the new department with its admin role', async () => {
      const leader = await member(f.b, null);
      const { body } = await call<{ id: string }>(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.b), name: 'Freezers', leaderId: String(leader.user.id) },
        { token: f.admin },
      );
      expect(body.msgCode).toBe(200);
      const id = Number(body.data.id);
      const [dept] = await ctx.app.db.select().from(departments).where(eq(departments.id, id));
      expect(dept!.leaderUserId).toBe(leader.user.id);
      const row = await memberRow(leader.user.id);
      const [role] = await ctx.app.db.select().from(roles).where(eq(roles.id, row!.roleId!));
      expect(row!.departmentId).toBe(id);
      expect(role).toMatchObject({ departmentId: id, isDepartmentAdmin: true });
    });

    it('refuses a parent outside the scope, and changes nothing', async () => {
      const before = await ctx.app.db.select().from(departments);
      for (const parentId of [f.rootId, f.b, f.foreignDept]) {
        const { body } = await call(
          ctx.app,
          '/api/userOrganize/addDepartment',
          { parentId: String(parentId), name: 'Sneaky' },
          { token: f.aEditor },
        );
        expect(body.msgContent).toBe('The department does not exist');
      }
      const foreign = await call(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.a), name: 'Sneaky' },
        { token: f.foreignAdmin },
      );
      expect(foreign.body.msgContent).toBe('The department does not exist');
      expect(await ctx.app.db.select().from(departments)).toHaveLength(before.length);
    });

    it('refuses a person in charge from outside the scope', async () => {
      const outsider = await member(f.b, null);
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.a), name: 'Lab', leaderId: String(outsider.user.id) },
        { token: f.aEditor },
      );
      expect(body.msgContent).toBe('The person in charge must be a member of your departments');
    });

    it('refuses a duplicate sibling name and a bad name, naming the field', async () => {
      const dup = await call(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.rootId), name: 'dept b' },
        { token: f.admin },
      );
      expect(dup.body.msgContent).toBe('A department named "dept b" already exists at this level');
      const bad = await call(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.rootId), name: 'x' },
        { token: f.admin },
      );
      expect(bad.body.msgContent).toBe('Name must be 2-20 characters');
    });

    it('needs org:edit', async () => {
      const viewer = await member(f.a, (await buildRole(ctx.app.db, f.companyId, f.a, ['org:view'])).id);
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/addDepartment',
        { parentId: String(f.a), name: 'Nope' },
        { token: viewer.token },
      );
      expect(body.msgContent).toBe('No permission for this service or operation');
    });
  });

  describe('editDepartment and deleteDepartment', () => {
    it('edits a department in scope and audits it', async () => {
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/editDepartment',
        { id: String(f.a1), name: 'Dept A One', address: 'Dock 1' },
        { token: f.aEditor },
      );
      expect(body.msgContent).toBe('Department saved');
      const [row] = await ctx.app.db.select().from(departments).where(eq(departments.id, f.a1));
      expect(row).toMatchObject({ name: 'Dept A One', address: 'Dock 1' });
    });

    it('refuses to edit the parent from a sub-department', async () => {
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/editDepartment',
        { id: String(f.rootId), name: 'Hijack' },
        { token: f.aEditor },
      );
      expect(body.msgContent).toBe('The department does not exist');
      const [row] = await ctx.app.db.select().from(departments).where(eq(departments.id, f.rootId));
      expect(row!.name).toBe('Acme Cold');
    });

    it('renames the company with the root department (administrator only)', async () => {
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/editDepartment',
        { id: String(f.rootId), name: 'Acme Frost' },
        { token: f.admin },
      );
      expect(body.msgCode).toBe(200);
      const [company] = await ctx.app.db.select().from(companies).where(eq(companies.id, f.companyId));
      expect(company!.name).toBe('Acme Frost');
      await ctx.app.db.update(companies).set({ name: 'Acme Cold' }).where(eq(companies.id, f.companyId));
      await ctx.app.db.update(departments).set({ name: 'Acme Cold' }).where(eq(departments.id, f.rootId));
    });

    it('refuses to delete the root', async () => {
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/deleteDepartment',
        { id: String(f.rootId) },
        { token: f.admin },
      );
      expect(body.msgContent).toBe('The top department stands for the company and cannot be deleted');
    });

    it('refuses to delete a department that still has something, saying what', async () => {
      const a = await call(
        ctx.app,
        '/api/userOrganize/deleteDepartment',
        { id: String(f.a) },
        { token: f.admin },
      );
      expect(a.body.msgContent).toMatch(
        /^The department is not empty \(sub-departments: \d+, members: \d+, devices: 0\)/,
      );
      const a1 = await call(
        ctx.app,
        '/api/userOrganize/deleteDepartment',
        { id: String(f.a1) },
        { token: f.admin, language: 'cn' },
      );
      expect(a1.body.msgContent).toBe('该部门不为空（下级部门：0，成员：1，设备：1），请先移走或删除');
      expect(await ctx.app.db.select().from(departments).where(eq(departments.id, f.a1))).toHaveLength(1);
    });

    it('deletes an empty department with its roles, audited', async () => {
      const empty = await buildDepartment(ctx.app.db, f.companyId, { name: 'Empty', parentId: f.a });
      await insertAdminRole(ctx.app.db, f.companyId, empty.id, []);
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/deleteDepartment',
        { id: String(empty.id) },
        { token: f.aEditor },
      );
      expect(body.msgContent).toBe('Department deleted');
      expect(await ctx.app.db.select().from(departments).where(eq(departments.id, empty.id))).toHaveLength(0);
      expect(await ctx.app.db.select().from(roles).where(eq(roles.departmentId, empty.id))).toHaveLength(0);
      const [audit] = await ctx.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'department.delete'), eq(auditLog.targetId, String(empty.id))));
      expect(audit).toBeDefined();
    });

    it('a foreign administrator cannot delete or edit our departments', async () => {
      const empty = await buildDepartment(ctx.app.db, f.companyId, { name: 'Target' });
      const del = await call(
        ctx.app,
        '/api/userOrganize/deleteDepartment',
        { id: String(empty.id) },
        { token: f.foreignAdmin },
      );
      expect(del.body.msgContent).toBe('The department does not exist');
      const edit = await call(
        ctx.app,
        '/api/userOrganize/editDepartment',
        { id: String(empty.id), name: 'Mine now' },
        { token: f.foreignAdmin },
      );
      expect(edit.body.msgContent).toBe('The department does not exist');
      const [row] = await ctx.app.db.select().from(departments).where(eq(departments.id, empty.id));
      expect(row!.name).toBe('Target');
    });
  });
});
