import type { DepartmentGroups, DeviceView, GroupingDepartment, GroupNode } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
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
import { devices } from '../devices/devices.table';

describe('device groups', () => {
  const ctx = useTestApp();

  async function setUp() {
    const company = await buildCompany(ctx.app.db);
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, company.id, { name: 'Cold Store' });
    const token = await login(ctx.app, company.admin.account);
    const add = async (body: Record<string, unknown>, language?: 'cn' | 'en') =>
      call<{ id: string }>(ctx.app, '/api/group/addGroup', body, { token, language });
    return { company, pharmacy, store, token, add };
  }

  it('adds nested groups and lists them as a tree with the worst device state', async () => {
    const { company, pharmacy, token, add } = await setUp();
    const fridges = await add({ departmentId: String(pharmacy.id), name: 'Fridges' });
    expect(fridges.body.msgCode).toBe(200);
    const ward = await add({
      departmentId: String(pharmacy.id),
      parentId: fridges.body.data.id,
      name: '病房冰箱',
    });
    expect(ward.body.msgCode).toBe(200);
    const a = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const b = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    await ctx.app.db
      .update(devices)
      .set({ groupId: Number(fridges.body.data.id), state: 1 })
      .where(eq(devices.id, Number(a.id)));
    // alarm (2) in a sub-group is worse than anything: it colours the parent too.
    await ctx.app.db
      .update(devices)
      .set({ groupId: Number(ward.body.data.id), state: 2 })
      .where(eq(devices.id, Number(b.id)));

    const { body } = await call<GroupNode[]>(
      ctx.app,
      '/api/group/listGroups',
      { departmentId: String(pharmacy.id) },
      { token },
    );
    expect(body.data).toEqual([
      expect.objectContaining({
        id: fridges.body.data.id,
        pid: '0',
        name: 'Fridges',
        state: 2,
        deviceCount: 1,
        children: [
          expect.objectContaining({ name: '病房冰箱', pid: fridges.body.data.id, state: 2, deviceCount: 1 }),
        ],
      }),
    ]);

    // Order of states: alarm > abnormal > offline > service > normal.
    await ctx.app.db
      .update(devices)
      .set({ state: 5 })
      .where(eq(devices.id, Number(b.id)));
    await ctx.app.db
      .update(devices)
      .set({ state: 4 })
      .where(eq(devices.id, Number(a.id)));
    const again = await call<GroupNode[]>(ctx.app, '/api/group/listGroups', {}, { token });
    expect(again.body.data[0]).toMatchObject({ state: 4, children: [{ state: 5 }] });

    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'group.add')));
    expect(audit).toHaveLength(2);
  });

  it('refuses names outside 2-20 characters and a taken name, naming the field in both languages', async () => {
    const { pharmacy, store, add } = await setUp();
    const short = await add({ departmentId: String(pharmacy.id), name: 'A' });
    expect(short.body.msgContent).toBe('Name must be 2-20 characters');
    const long = await add({ departmentId: String(pharmacy.id), name: 'x'.repeat(21) }, 'cn');
    expect(long.body.msgContent).toBe('名称须为 2-20 个字符');
    expect((await add({ departmentId: String(pharmacy.id), name: 'Freezers' })).body.msgCode).toBe(200);
    const twice = await add({ departmentId: String(pharmacy.id), name: 'Freezers' });
    expect(twice.body.msgContent).toBe('A group with this name already exists in the department');
    // The same name in another department is fine.
    expect((await add({ departmentId: String(store.id), name: 'Freezers' })).body.msgCode).toBe(200);
  });

  it('renames and deletes: devices fall back to no group, sub-groups move up', async () => {
    const { company, pharmacy, token, add } = await setUp();
    const top = (await add({ departmentId: String(pharmacy.id), name: 'Top' })).body.data.id;
    const mid = (await add({ departmentId: String(pharmacy.id), parentId: top, name: 'Mid' })).body.data.id;
    const low = (await add({ departmentId: String(pharmacy.id), parentId: mid, name: 'Low' })).body.data.id;
    const device = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    await ctx.app.db
      .update(devices)
      .set({ groupId: Number(mid) })
      .where(eq(devices.id, Number(device.id)));

    const renamed = await call(ctx.app, '/api/group/editGroup', { id: mid, name: 'Middle' }, { token });
    expect(renamed.body.msgCode).toBe(200);
    const deleted = await call(ctx.app, '/api/group/deleteGroup', { id: mid }, { token });
    expect(deleted.body.msgCode).toBe(200);
    const detail = await call<DeviceView>(ctx.app, '/api/device/deviceDetail', { id: device.id }, { token });
    expect(detail.body.data.groupId).toBeNull();
    const tree = await call<GroupNode[]>(ctx.app, '/api/group/listGroups', {}, { token });
    expect(tree.body.data).toEqual([
      expect.objectContaining({ id: top, children: [expect.objectContaining({ id: low, pid: top })] }),
    ]);
    const gone = await call(ctx.app, '/api/group/editGroup', { id: mid, name: 'Again' }, { token });
    expect(gone.body.msgContent).toBe('The group does not exist');
  });

  it('never moves a group across departments, to the company, or into itself', async () => {
    const { company, pharmacy, store, token, add } = await setUp();
    const rootId = (await call<{ id: string }[]>(ctx.app, '/api/group/groupDevices', {}, { token })).body
      .data[0]!.id;
    const top = (await add({ departmentId: String(pharmacy.id), name: 'Top' })).body.data.id;
    const child = (await add({ departmentId: String(pharmacy.id), parentId: top, name: 'Child' })).body.data
      .id;
    const other = (await add({ departmentId: String(pharmacy.id), name: 'Other' })).body.data.id;
    const foreign = (await add({ departmentId: String(store.id), name: 'Foreign' })).body.data.id;
    const move = (body: Record<string, unknown>, language?: 'cn' | 'en') =>
      call(ctx.app, '/api/group/moveGroup', body, { token, language });

    expect((await move({ id: top, departmentId: String(store.id) })).body.msgContent).toBe(
      'A group cannot be moved to another department',
    );
    expect(
      (await move({ id: top, departmentId: String(pharmacy.id), parentId: foreign })).body.msgContent,
    ).toBe('A group cannot be moved to another department');
    expect((await move({ id: top, departmentId: rootId }, 'cn')).body.msgContent).toBe('分组不能移动到企业');
    expect((await move({ id: top, departmentId: String(pharmacy.id), parentId: top })).body.msgContent).toBe(
      'A group cannot be moved into itself or one of its sub-groups',
    );
    expect(
      (await move({ id: top, departmentId: String(pharmacy.id), parentId: child })).body.msgContent,
    ).toBe('A group cannot be moved into itself or one of its sub-groups');
    // Allowed: under a sibling, then back to the top of the department.
    expect((await move({ id: top, departmentId: String(pharmacy.id), parentId: other })).body.msgCode).toBe(
      200,
    );
    let tree = (
      await call<GroupNode[]>(
        ctx.app,
        '/api/group/listGroups',
        { departmentId: String(pharmacy.id) },
        { token },
      )
    ).body.data;
    expect(tree.map((g) => g.name)).toEqual(['Other']);
    expect(tree[0]!.children[0]).toMatchObject({ id: top, children: [{ id: child }] });
    expect((await move({ id: top, departmentId: String(pharmacy.id) })).body.msgCode).toBe(200);
    tree = (
      await call<GroupNode[]>(
        ctx.app,
        '/api/group/listGroups',
        { departmentId: String(pharmacy.id) },
        { token },
      )
    ).body.data;
    expect(tree.map((g) => g.name)).toEqual(['Other', 'Top']);
    const moves = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'group.move')));
    expect(moves).toHaveLength(2);
  });

  it('keeps groups to the departments the caller may see and to device editors', async () => {
    const { company, pharmacy, store, add } = await setUp();
    const storeGroup = (await add({ departmentId: String(store.id), name: 'Store group' })).body.data.id;
    const pharmacyGroup = (await add({ departmentId: String(pharmacy.id), name: 'Pharm group' })).body.data
      .id;
    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, [
      'device:view',
      'device:edit',
      'monitoring:view',
    ]);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id, false, { departmentId: pharmacy.id, roleId: role.id });
    const token = await login(ctx.app, member.account);
    const list = await call<GroupNode[]>(ctx.app, '/api/group/listGroups', {}, { token });
    expect(list.body.data.map((g) => g.id)).toEqual([pharmacyGroup]);
    const pickers = await call<DepartmentGroups[]>(ctx.app, '/api/group/departmentGroups', {}, { token });
    expect(pickers.body.data).toEqual([
      expect.objectContaining({
        id: String(pharmacy.id),
        name: 'Pharmacy',
        level: 2,
        groups: [expect.objectContaining({ id: pharmacyGroup })],
      }),
    ]);
    for (const [url, body] of [
      ['/api/group/editGroup', { id: storeGroup, name: 'Mine now' }],
      ['/api/group/deleteGroup', { id: storeGroup }],
      ['/api/group/moveGroup', { id: storeGroup, departmentId: String(store.id) }],
    ] as const) {
      const { body: answer } = await call(ctx.app, url, body, { token });
      expect(answer.msgContent, url).toBe('The group does not exist');
    }
    const foreignAdd = await call(
      ctx.app,
      '/api/group/addGroup',
      { departmentId: String(store.id), name: 'Sneaky' },
      { token },
    );
    expect(foreignAdd.body.msgContent).toBe('No permission for this service or operation');
    const listForeign = await call(
      ctx.app,
      '/api/group/listGroups',
      { departmentId: String(store.id) },
      { token },
    );
    expect(listForeign.body.msgContent).toBe('No permission for this service or operation');

    const viewerRole = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view']);
    const viewer = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, viewer.id, false, {
      departmentId: pharmacy.id,
      roleId: viewerRole.id,
    });
    const viewerToken = await login(ctx.app, viewer.account);
    const refused = await call(
      ctx.app,
      '/api/group/addGroup',
      { departmentId: String(pharmacy.id), name: 'Nope' },
      { token: viewerToken },
    );
    expect(refused.body.msgContent).toBe('No permission for this service or operation');
    const noMonitoring = await call(ctx.app, '/api/group/groupDevices', {}, { token: viewerToken });
    expect(noMonitoring.body.msgContent).toBe('No permission for this service or operation');

    const stranger = await buildCompany(ctx.app.db);
    const strangerToken = await login(ctx.app, stranger.admin.account);
    const cross = await call(
      ctx.app,
      '/api/group/deleteGroup',
      { id: pharmacyGroup },
      { token: strangerToken },
    );
    expect(cross.body.msgContent).toBe('The group does not exist');
  });

  it('puts a device only in a group of its own department', async () => {
    const { company, pharmacy, store, token, add } = await setUp();
    const pharmacyGroup = (await add({ departmentId: String(pharmacy.id), name: 'Pharm group' })).body.data
      .id;
    const storeGroup = (await add({ departmentId: String(store.id), name: 'Store group' })).body.data.id;
    const device = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const settings = {
      id: device.id,
      name: 'Fridge',
      recordInterval: 60,
      uploadInterval: 300,
      alarmVerifyInterval: 60,
      offlineJudgement: 3,
    };
    const wrong = await call(
      ctx.app,
      '/api/device/editDevice',
      { ...settings, groupId: storeGroup },
      { token, language: 'cn' },
    );
    expect(wrong.body.msgContent).toBe('分组必须属于设备所在部门');
    const right = await call<DeviceView>(
      ctx.app,
      '/api/device/editDevice',
      { ...settings, groupId: pharmacyGroup },
      { token },
    );
    expect(right.body.data.groupId).toBe(pharmacyGroup);
    // Moving the device to another department drops the group that no longer fits.
    const moved = await call<DeviceView>(
      ctx.app,
      '/api/device/editDevice',
      { ...settings, departmentId: String(store.id) },
      { token },
    );
    expect(moved.body.data).toMatchObject({ departmentId: String(store.id), groupId: null });
    const both = await call<DeviceView>(
      ctx.app,
      '/api/device/editDevice',
      { ...settings, departmentId: String(store.id), groupId: storeGroup },
      { token },
    );
    expect(both.body.data.groupId).toBe(storeGroup);
  });

  it('shows every department with its group trees, devices and live values for the grouping mode', async () => {
    const { company, pharmacy, store, token, add } = await setUp();
    const fridges = (await add({ departmentId: String(pharmacy.id), name: 'Fridges' })).body.data.id;
    const grouped = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id, name: 'Grouped' });
    await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id, name: 'Loose' });
    await buildDevice(ctx.app.db, company.id, { departmentId: store.id, name: 'Store fridge' });
    await ctx.app.db
      .update(devices)
      .set({ groupId: Number(fridges), state: 3 })
      .where(eq(devices.id, Number(grouped.id)));

    const { body } = await call<GroupingDepartment[]>(ctx.app, '/api/group/groupDevices', {}, { token });
    expect(body.data.map((d) => d.name)).toEqual([
      expect.stringMatching(/^Company /),
      'Pharmacy',
      'Cold Store',
    ]);
    const pharmacyView = body.data.find((d) => d.name === 'Pharmacy')!;
    expect(pharmacyView.state).toBe(3);
    expect(pharmacyView.groups).toEqual([
      expect.objectContaining({
        id: fridges,
        state: 3,
        devices: [expect.objectContaining({ name: 'Grouped' })],
      }),
    ]);
    expect(pharmacyView.groups[0]!.devices[0]!.sensors).toHaveLength(1);
    expect(pharmacyView.devices.map((d) => d.name)).toEqual(['Loose']);
    const one = await call<GroupingDepartment[]>(
      ctx.app,
      '/api/group/groupDevices',
      { departmentId: String(store.id) },
      { token },
    );
    expect(one.body.data).toEqual([expect.objectContaining({ name: 'Cold Store', state: 4, groups: [] })]);
  });
});
