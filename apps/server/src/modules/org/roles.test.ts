import type { Page, RoleView } from '@coldchain/contract';
import { AuthTags } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { insertAdminRole } from './company-setup';
import { roles } from './org.table';

/**
 * A company with root > A > A1 and root > B. A's administrator role is narrower than the root's,
 * A1's narrower than A's, so every ceiling is visible.
 */
describe('roles', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const f = {} as {
    companyId: number;
    rootId: number;
    rootAdminRoleId: number;
    a: number;
    a1: number;
    b: number;
    aAdminRole: number;
    a1AdminRole: number;
    bAdminRole: number;
    admin: string;
    aAdmin: string;
    aManager: string;
    aManagerRole: number;
  };
  const A_ADMIN_TAGS = ['device:view', 'device:edit', 'alarm:view', 'user:view', 'role:view', 'role:edit'];
  const A1_ADMIN_TAGS = ['device:view', 'role:view'];

  async function memberWithRole(departmentId: number, roleId: number | null) {
    const user = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, user.id, false, { departmentId, roleId });
    return { user, token: await login(ctx.app, user.account) };
  }
  async function tagsOf(roleId: number) {
    const [row] = await ctx.app.db.select({ tags: roles.tags }).from(roles).where(eq(roles.id, roleId));
    return row!.tags;
  }

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    f.companyId = company.id;
    f.admin = await login(ctx.app, company.admin.account);
    const [rootAdmin] = await db
      .select()
      .from(roles)
      .where(and(eq(roles.companyId, company.id), eq(roles.isDepartmentAdmin, true)));
    f.rootAdminRoleId = rootAdmin!.id;
    f.rootId = rootAdmin!.departmentId;
    f.a = (await buildDepartment(db, company.id, { name: 'Dept A' })).id;
    f.a1 = (await buildDepartment(db, company.id, { name: 'Dept A1', parentId: f.a })).id;
    f.b = (await buildDepartment(db, company.id, { name: 'Dept B' })).id;
    f.aAdminRole = await insertAdminRole(db, company.id, f.a, A_ADMIN_TAGS);
    f.a1AdminRole = await insertAdminRole(db, company.id, f.a1, A1_ADMIN_TAGS);
    f.bAdminRole = await insertAdminRole(db, company.id, f.b, ['device:view']);
    f.aAdmin = (await memberWithRole(f.a, f.aAdminRole)).token;
    const managerRole = await buildRole(db, company.id, f.a, ['role:view', 'role:edit', 'device:view'], {
      name: 'Role manager',
    });
    f.aManagerRole = managerRole.id;
    f.aManager = (await memberWithRole(f.a, managerRole.id)).token;
  });

  it('pages the roles of a department, administrator role first, with how many hold each', async () => {
    const page = await call<Page<RoleView>>(
      ctx.app,
      '/api/role/pageRoles',
      { departmentId: f.a },
      { token: f.admin },
    );
    expect(page.body.msgCode).toBe(200);
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list[0]).toMatchObject({
      id: String(f.aAdminRole),
      departmentId: String(f.a),
      isDepartmentAdmin: true,
      userCount: 1,
      tags: A_ADMIN_TAGS,
    });
    expect(page.body.data.list[1]).toMatchObject({
      name: 'Role manager',
      userCount: 1,
      isDepartmentAdmin: false,
    });
    const root = await call<Page<RoleView>>(
      ctx.app,
      '/api/role/pageRoles',
      { departmentId: f.rootId },
      { token: f.admin },
    );
    expect(root.body.data.list[0]!.tags).toEqual([...AuthTags]);
  });

  it('keeps every member to the departments of their scope', async () => {
    const sibling = await call(ctx.app, '/api/role/pageRoles', { departmentId: f.b }, { token: f.aAdmin });
    expect(sibling.body).toMatchObject({
      msgCode: 500,
      msgContent: 'No permission for this service or operation',
    });
    const add = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.b, name: 'Intruder' },
      { token: f.aAdmin },
    );
    expect(add.body.msgContent).toBe('No permission for this service or operation');
    const upward = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.rootAdminRoleId, name: 'Boss', tags: [] },
      { token: f.aAdmin },
    );
    expect(upward.body.msgContent).toBe('The role does not exist');
    expect(await tagsOf(f.rootAdminRoleId)).toEqual([...AuthTags]);
  });

  it('applies the name rule of spec section 5 in both languages and refuses duplicates', async () => {
    const tooShort = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'X' },
      { token: f.admin },
    );
    expect(tooShort.body.msgContent).toBe(
      'Name must be 2-20 letters and digits, or 2-100 characters in Chinese',
    );
    const symbols = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Ops!' },
      { token: f.admin, language: 'cn' },
    );
    expect(symbols.body.msgContent).toBe('名称须为 2-20 位英文字母和数字，或 2-100 个中文字符');
    const long = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'A'.repeat(21) },
      { token: f.admin },
    );
    expect(long.body.msgCode).toBe(500);
    const chineseOne = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: '管' },
      { token: f.admin },
    );
    expect(chineseOne.body.msgCode).toBe(500);
    const chineseLong = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: '管'.repeat(101) },
      { token: f.admin },
    );
    expect(chineseLong.body.msgCode).toBe(500);
    const chinese = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: '仓'.repeat(30), tags: [] },
      { token: f.admin },
    );
    expect(chinese.body).toMatchObject({ msgCode: 200, msgContent: 'Role added' });
    const english = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Night shift 2' },
      { token: f.admin },
    );
    expect(english.body.msgCode).toBe(200);
    const twice = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'night SHIFT 2' },
      { token: f.admin, language: 'cn' },
    );
    expect(twice.body.msgContent).toBe('角色名称：该部门已存在名为“night SHIFT 2”的角色');
    const elsewhere = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a1, name: 'Night shift 2' },
      { token: f.admin },
    );
    expect(elsewhere.body.msgCode).toBe(200);
  });

  it('refuses unknown permissions, naming the field and the tag', async () => {
    const en = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Typo', tags: ['device:veiw'] },
      { token: f.admin },
    );
    expect(en.body).toMatchObject({
      msgCode: 500,
      msgContent: 'Permissions: "device:veiw" is not a known permission',
    });
    const cn = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Typo', tags: ['x'] },
      { token: f.admin, language: 'cn' },
    );
    expect(cn.body.msgContent).toBe('权限：“x”不是有效的权限');
    const notArray = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Typo', tags: 'device:view' },
      { token: f.admin },
    );
    expect(notArray.body.msgContent).toBe('Permissions has the wrong type');
  });

  it("caps an ordinary role at its department administrator role's tags", async () => {
    const above = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Auditor', tags: ['device:view', 'audit:view'] },
      { token: f.admin },
    );
    expect(above.body.msgContent).toBe(
      'Permissions: "audit:view" cannot be given here; a role may only hold permissions that you hold and that the department administrator role above it holds',
    );
    const within = await call<{ id: string }>(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a1, name: 'Viewer', tags: ['device:view', 'device:view'] },
      { token: f.admin },
    );
    expect(within.body.msgCode).toBe(200);
    expect(await tagsOf(Number(within.body.data.id))).toEqual(['device:view']);
    const a1Above = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a1, name: 'Editor', tags: ['device:edit'] },
      { token: f.admin, language: 'cn' },
    );
    expect(a1Above.body.msgContent).toBe(
      '权限：无法授予“device:edit”；角色只能拥有您本人和其上级部门管理员角色都拥有的权限',
    );
  });

  it("caps a department administrator role at the parent's administrator role", async () => {
    const overParent = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.a1AdminRole, name: 'Administrator', tags: [...A1_ADMIN_TAGS, 'audit:view'] },
      { token: f.admin },
    );
    expect(overParent.body.msgContent).toContain('"audit:view" cannot be given here');
    expect(await tagsOf(f.a1AdminRole)).toEqual(A1_ADMIN_TAGS);
  });

  it("lets nobody grant a tag they do not hold, but keeping a role's tag is not granting it", async () => {
    // A1's administrator role gains device:edit (within A's ceiling); the manager lacks device:edit.
    const raise = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.a1AdminRole, name: 'Administrator', tags: ['device:view', 'device:edit', 'role:view'] },
      { token: f.aAdmin },
    );
    expect(raise.body).toMatchObject({ msgCode: 200, msgContent: 'Role saved' });
    const grant = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a1, name: 'Fitter', tags: ['device:edit'] },
      { token: f.aManager },
    );
    expect(grant.body.msgContent).toContain('"device:edit" cannot be given here');
    const fitter = await buildRole(ctx.app.db, f.companyId, f.a1, ['device:view', 'device:edit'], {
      name: 'Fitter',
    });
    const rename = await call(
      ctx.app,
      '/api/role/editRole',
      { id: fitter.id, name: 'Senior fitter', tags: ['device:view', 'device:edit'] },
      { token: f.aManager },
    );
    expect(rename.body.msgCode).toBe(200);
    expect(await tagsOf(fitter.id)).toEqual(['device:view', 'device:edit']);
    const tags = await call<{ tags: string[]; adminTags: string[] }>(
      ctx.app,
      '/api/role/assignableTags',
      { departmentId: f.a1 },
      { token: f.aManager },
    );
    expect(tags.body.data).toEqual({
      tags: ['device:view', 'role:view'],
      adminTags: ['device:view', 'role:view', 'role:edit'],
    });
  });

  it('lets department administrators manage their department and below, others only below', async () => {
    const ownDept = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Peer role' },
      { token: f.aManager },
    );
    expect(ownDept.body.msgContent).toBe(
      'You can manage only the roles of departments below your own (a department administrator also those of their own department)',
    );
    const lowerAdmin = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.a1AdminRole, name: 'Chief', tags: [] },
      { token: f.aManager, language: 'cn' },
    );
    expect(lowerAdmin.body.msgContent).toBe('只有上级部门的管理员才能修改部门管理员角色');
    const own = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.aManagerRole, name: 'Role manager', tags: [] },
      { token: f.aManager },
    );
    expect(own.body.msgContent).toBe('You cannot change the role you hold yourself');
    const ownAdmin = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.aAdminRole, name: 'Administrator', tags: [] },
      { token: f.aAdmin },
    );
    expect(ownAdmin.body.msgContent).toBe('You cannot change the role you hold yourself');
    expect(await tagsOf(f.aAdminRole)).toEqual(A_ADMIN_TAGS);
    const adminOwnDept = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a, name: 'Packer', tags: ['device:view'] },
      { token: f.aAdmin },
    );
    expect(adminOwnDept.body.msgCode).toBe(200);
    const managerBelow = await call(
      ctx.app,
      '/api/role/addRole',
      { departmentId: f.a1, name: 'Driver', tags: ['device:view'] },
      { token: f.aManager },
    );
    expect(managerBelow.body.msgCode).toBe(200);
  });

  it('never changes or deletes the company administrator role', async () => {
    const edit = await call(
      ctx.app,
      '/api/role/editRole',
      { id: f.rootAdminRoleId, name: 'Administrator', tags: ['home:view'] },
      { token: f.admin },
    );
    expect(edit.body.msgContent).toBe(
      'The company administrator role holds every permission and cannot be changed or deleted',
    );
    const del = await call(
      ctx.app,
      '/api/role/deleteRole',
      { id: f.rootAdminRoleId },
      { token: f.admin, language: 'cn' },
    );
    expect(del.body.msgContent).toBe('企业管理员角色拥有全部权限，不能修改或删除');
    expect(await tagsOf(f.rootAdminRoleId)).toEqual([...AuthTags]);
  });

  it('reducing an administrator role reduces every role below in the same change, raising it raises nothing', async () => {
    const db = ctx.app.db;
    const c = await buildCompany(db);
    const admin = await login(ctx.app, c.admin.account);
    const x = (await buildDepartment(db, c.id, { name: 'X' })).id;
    const x1 = (await buildDepartment(db, c.id, { name: 'X1', parentId: x })).id;
    const y = (await buildDepartment(db, c.id, { name: 'Y' })).id;
    const xAdmin = await insertAdminRole(db, c.id, x, ['device:view', 'device:edit', 'alarm:view']);
    const x1Admin = await insertAdminRole(db, c.id, x1, ['device:view', 'device:edit', 'alarm:view']);
    await insertAdminRole(db, c.id, y, ['device:view', 'device:edit']);
    const xRole = await buildRole(db, c.id, x, ['device:view', 'device:edit']);
    const x1Role = await buildRole(db, c.id, x1, ['device:edit', 'alarm:view']);
    const yRole = await buildRole(db, c.id, y, ['device:view', 'device:edit']);

    const reduce = await call<{ reducedRoles: number }>(
      ctx.app,
      '/api/role/editRole',
      { id: xAdmin, name: 'Administrator', tags: ['alarm:view', 'device:view'] },
      { token: admin },
    );
    expect(reduce.body.msgCode).toBe(200);
    expect(reduce.body.data.reducedRoles).toBe(3);
    expect(await tagsOf(xAdmin)).toEqual(['device:view', 'alarm:view']);
    expect(await tagsOf(xRole.id)).toEqual(['device:view']);
    expect(await tagsOf(x1Admin)).toEqual(['device:view', 'alarm:view']);
    expect(await tagsOf(x1Role.id)).toEqual(['alarm:view']);
    expect(await tagsOf(yRole.id)).toEqual(['device:view', 'device:edit']);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, c.id), eq(auditLog.action, 'role.edit')));
    expect(entry).toMatchObject({ targetType: 'role', targetId: String(xAdmin) });
    expect((entry!.after as { reducedBelow: unknown[] }).reducedBelow).toHaveLength(3);

    const raise = await call(
      ctx.app,
      '/api/role/editRole',
      { id: xAdmin, name: 'Administrator', tags: ['device:view', 'device:edit', 'alarm:view'] },
      { token: admin },
    );
    expect(raise.body.msgCode).toBe(200);
    expect(await tagsOf(xRole.id)).toEqual(['device:view']);
    expect(await tagsOf(x1Admin)).toEqual(['device:view', 'alarm:view']);
    expect(await tagsOf(x1Role.id)).toEqual(['alarm:view']);
  });

  it('deletes an unused ordinary role with an audit entry; refuses administrator roles and roles in use', async () => {
    const adminRole = await call(ctx.app, '/api/role/deleteRole', { id: f.aAdminRole }, { token: f.admin });
    expect(adminRole.body.msgContent).toBe(
      'A department administrator role cannot be deleted; it goes with its department',
    );
    const inUse = await call(
      ctx.app,
      '/api/role/deleteRole',
      { id: f.aManagerRole },
      { token: f.admin, language: 'cn' },
    );
    expect(inUse.body.msgContent).toBe('该角色仍有 1 人使用，请先为他们更换角色');
    const spare = await buildRole(ctx.app.db, f.companyId, f.a1, ['device:view'], { name: 'Spare' });
    const deleted = await call(ctx.app, '/api/role/deleteRole', { id: spare.id }, { token: f.aAdmin });
    expect(deleted.body.msgCode).toBe(200);
    expect(await ctx.app.db.select().from(roles).where(eq(roles.id, spare.id))).toEqual([]);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'role.delete'), eq(auditLog.targetId, String(spare.id))));
    expect(entry?.before).toMatchObject({ name: 'Spare', tags: ['device:view'] });
    const gone = await call(ctx.app, '/api/role/deleteRole', { id: spare.id }, { token: f.admin });
    expect(gone.body.msgContent).toBe('The role does not exist');
  });
});
