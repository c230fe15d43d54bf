import type { DeviceView, Page } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
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
import { statementsOf } from '../../test/statement-log';
import { seedDemo } from '../demo/demo-seed';
import { rootDepartmentId } from '../groups/groups.service';
import { devicePermissions } from '../org/org.table';
import { devices } from './devices.table';

describe('monitors', () => {
  const ctx = useTestApp();

  it('adds a spare serial from the inventory, with one sensor per channel and a device key shown once', async () => {
    await seedDemo(ctx.app.db);
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const added = await call<{ id: string; deviceKey: string }>(
      ctx.app,
      '/api/device/addDevice',
      { serial: 'sim1001', name: 'Vaccine fridge' },
      { token },
    );
    expect(added.body.msgCode).toBe(200);
    expect(added.body.data.deviceKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const detail = await call<DeviceView>(
      ctx.app,
      '/api/device/deviceDetail',
      { id: added.body.data.id },
      { token },
    );
    expect(detail.body.data).toMatchObject({
      serial: 'SIM1001',
      name: 'Vaccine fridge',
      model: 'CC-TH2',
      version: 'standard',
      state: 4,
    });
    expect(detail.body.data.sensors.map((s) => [s.channel, s.type, s.unit])).toEqual([
      [1, 'temperature', '°C'],
      [2, 'humidity', '%RH'],
    ]);
    expect(JSON.stringify(detail.body.data)).not.toContain(added.body.data.deviceKey);
    // Added by someone who sees the whole company, without a department: filed in the top one.
    const root = await rootDepartmentId(ctx.app.db, company.id);
    expect(detail.body.data.departmentId).toBe(String(root));
    expect(detail.body.data.expireTime).toBeGreaterThan(Date.now() + 360 * 86_400_000);

    const again = await call(
      ctx.app,
      '/api/device/addDevice',
      { serial: 'SIM1001', name: 'Twice' },
      { token, language: 'cn' },
    );
    expect(again.body).toEqual({ msgCode: 500, msgContent: '序列号不存在或已被使用', data: null });
    const unknown = await call(
      ctx.app,
      '/api/device/addDevice',
      { serial: 'NOPE999', name: 'Ghost' },
      { token },
    );
    expect(unknown.body.msgContent).toBe('Serial number does not exist or is already used');
  });

  it('pages, filters, searches and counts devices by state, only within the company', async () => {
    const company = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    await buildDevice(ctx.app.db, company.id, { name: 'Cold room A' });
    await buildDevice(ctx.app.db, company.id, { name: 'Freezer B' });
    await buildDevice(ctx.app.db, other.id, { name: 'Foreign C' });
    const token = await login(ctx.app, company.admin.account);
    const page = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      { pageNum: 1, pageSize: 1 },
      { token },
    );
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((d) => d.name)).toEqual(['Cold room A']);
    const search = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      { keyword: 'freez' },
      { token },
    );
    expect(search.body.data.list.map((d) => d.name)).toEqual(['Freezer B']);
    const counts = await call<Record<string, number>>(
      ctx.app,
      '/api/device/countGroupByState',
      {},
      { token },
    );
    expect(counts.body.data).toEqual({ '1': 0, '2': 0, '3': 0, '4': 2, '5': 0, '6': 0 });
  });

  it('never shows or changes a device of another company', async () => {
    const mine = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    const foreign = await buildDevice(ctx.app.db, other.id);
    const token = await login(ctx.app, mine.admin.account);
    for (const url of ['/api/device/deviceDetail', '/api/device/resetDeviceKey']) {
      const { body } = await call(ctx.app, url, { id: foreign.id }, { token });
      expect(body, url).toEqual({ msgCode: 500, msgContent: 'The device does not exist', data: null });
    }
    const history = await call(
      ctx.app,
      '/api/device/historyData',
      { sensorId: String(foreign.sensors[0]!.id), startTime: 0, endTime: Date.now() },
      { token },
    );
    expect(history.body.msgContent).toBe('The sensor does not exist');
  });

  it('refuses device calls to a member without device rights', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id);
    const token = await login(ctx.app, member.account);
    for (const url of ['/api/device/addDevice', '/api/device/pageDevices', '/api/device/countGroupByState']) {
      const { body } = await call(ctx.app, url, { serial: 'SIM1002', name: 'x' }, { token });
      expect(body.msgContent, url).toBe('No permission for this service or operation');
    }
  });

  it('names the field of a bad request', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call(
      ctx.app,
      '/api/device/addDevice',
      { serial: 'SIM1003' },
      { token, language: 'cn' },
    );
    expect(body.msgContent).toBe('名称不能为空');
    const badId = await call(ctx.app, '/api/device/deviceDetail', { id: 'abc' }, { token });
    expect(badId.body.msgContent).toBe('ID is not a valid ID');
  });
});

describe('editing a monitor', () => {
  const ctx = useTestApp();
  const valid = {
    name: 'Fridge 2B',
    recordInterval: 60,
    uploadInterval: 300,
    alarmVerifyInterval: 120,
    offlineJudgement: 4,
    hostAddress: '01',
    subAddress: '02',
    remark: 'Left of the door',
    region: 'Selangor',
    address: 'Ward 2B',
  };

  it('saves the settings, and upload interval x offline judgement drives offline detection', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call<DeviceView>(
      ctx.app,
      '/api/device/editDevice',
      { id: device.id, ...valid },
      { token },
    );
    expect(body.msgCode).toBe(200);
    expect(body.data).toMatchObject({
      name: 'Fridge 2B',
      uploadInterval: 300,
      alarmVerifyInterval: 120,
      offlineJudgement: 4,
      address: 'Ward 2B',
    });
    const remark = await call(
      ctx.app,
      '/api/device/setRemark',
      { id: device.id, remark: 'Moved' },
      { token },
    );
    expect(remark.body.msgCode).toBe(200);
    const detail = await call<DeviceView>(ctx.app, '/api/device/deviceDetail', { id: device.id }, { token });
    expect(detail.body.data.remark).toBe('Moved');
  });

  it('refuses an alarm verification interval above the upload interval, in both languages', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const input = { id: device.id, ...valid, alarmVerifyInterval: 600 };
    const en = await call(ctx.app, '/api/device/editDevice', input, { token });
    expect(en.body.msgContent).toBe(
      'The alarm verification interval must be at most the data upload interval',
    );
    const cn = await call(ctx.app, '/api/device/editDevice', input, { token, language: 'cn' });
    expect(cn.body.msgContent).toBe('报警验证间隔不能大于数据上传间隔');
    const zero = await call(
      ctx.app,
      '/api/device/editDevice',
      { ...input, alarmVerifyInterval: 60, offlineJudgement: 0 },
      { token },
    );
    expect(zero.body.msgContent).toBe('Offline judgement count must be at least 1');
  });

  it('checks where an edit puts the device only when it moves it', async () => {
    const company = await buildCompany(ctx.app.db);
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, company.id, { name: 'Cold Store' });
    const token = await login(ctx.app, company.admin.account);
    const group = async (departmentId: number, name: string) =>
      (
        await call<{ id: string }>(
          ctx.app,
          '/api/group/addGroup',
          { departmentId: String(departmentId), name },
          { token },
        )
      ).body.data.id;
    const fridges = await group(pharmacy.id, 'Fridges');
    const freezers = await group(store.id, 'Freezers');
    const device = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const edit = (place: { departmentId: string; groupId: string | null }, language?: 'cn') =>
      call<DeviceView>(
        ctx.app,
        '/api/device/editDevice',
        { id: device.id, ...valid, ...place },
        { token, language },
      );

    const into = await edit({ departmentId: String(pharmacy.id), groupId: fridges });
    expect(into.body.data).toMatchObject({ departmentId: String(pharmacy.id), groupId: fridges });
    // The form sends the place back unchanged: nothing to check, for a company-wide caller.
    const { statements } = await statementsOf(ctx.app.db, () =>
      edit({ departmentId: String(pharmacy.id), groupId: fridges }),
    );
    expect(statements.filter((s) => /from "(departments|device_groups)"/.test(s))).toEqual([]);
    // Moved, it is checked: a group of another department is refused, in both languages, and
    // nothing changes.
    const wrong = await edit({ departmentId: String(pharmacy.id), groupId: freezers });
    expect(wrong.body.msgContent).toBe("The group must belong to the device's department");
    const wrongCn = await edit({ departmentId: String(pharmacy.id), groupId: freezers }, 'cn');
    expect(wrongCn.body.msgContent).toBe('分组必须属于设备所在部门');
    const moved = await edit({ departmentId: String(store.id), groupId: freezers });
    expect(moved.body.data).toMatchObject({ departmentId: String(store.id), groupId: freezers });
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(device.id)));
    expect(row).toMatchObject({ departmentId: store.id, groupId: Number(freezers), name: 'Fridge 2B' });
  });
});

describe('which monitors the caller may edit', () => {
  const ctx = useTestApp();

  /** The `editable` flag of each device in the list, by id, and of one device's detail. */
  async function flags(token: string, detailId: string) {
    const page = await call<Page<DeviceView>>(ctx.app, '/api/device/pageDevices', {}, { token });
    const detail = await call<DeviceView>(ctx.app, '/api/device/deviceDetail', { id: detailId }, { token });
    return {
      list: Object.fromEntries(page.body.data.list.map((d) => [d.id, d.editable])),
      detail: detail.body.data.editable,
    };
  }

  /**
   * A Pharmacy and a Cold Store in `companyId`, a device in the first and two in the second, and
   * a member of the Pharmacy whose role may view and edit devices.
   */
  async function pharmacyEditor(companyId: number) {
    const pharmacy = await buildDepartment(ctx.app.db, companyId, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, companyId, { name: 'Cold Store' });
    const own = await buildDevice(ctx.app.db, companyId, { departmentId: pharmacy.id });
    const inStore = [
      await buildDevice(ctx.app.db, companyId, { departmentId: store.id }),
      await buildDevice(ctx.app.db, companyId, { departmentId: store.id }),
    ] as const;
    const role = await buildRole(ctx.app.db, companyId, pharmacy.id, ['device:view', 'device:edit']);
    const editor = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, companyId, editor.id, false, { departmentId: pharmacy.id, roleId: role.id });
    return { pharmacy, own, inStore, editor };
  }

  it('marks devices in the edit scope, not those only granted for viewing or seen without the edit tag', async () => {
    const company = await buildCompany(ctx.app.db);
    const {
      pharmacy,
      own,
      inStore: [viewOnly, editGrant],
      editor,
    } = await pharmacyEditor(company.id);
    await ctx.app.db.insert(devicePermissions).values([
      { companyId: company.id, userId: editor.id, deviceId: Number(viewOnly.id), canEdit: false },
      { companyId: company.id, userId: editor.id, deviceId: Number(editGrant.id), canEdit: true },
    ]);
    const editorToken = await login(ctx.app, editor.account);
    expect(await flags(editorToken, viewOnly.id)).toEqual({
      list: { [own.id]: true, [viewOnly.id]: false, [editGrant.id]: true },
      detail: false,
    });

    const viewerRole = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view']);
    const viewer = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, viewer.id, false, {
      departmentId: pharmacy.id,
      roleId: viewerRole.id,
    });
    expect(await flags(await login(ctx.app, viewer.account), own.id)).toEqual({
      list: { [own.id]: false },
      detail: false,
    });

    const adminToken = await login(ctx.app, company.admin.account);
    expect((await flags(adminToken, viewOnly.id)).detail).toBe(true);
  });

  it("edits only what the caller may change: a company's own devices, a department's, an edit grant", async () => {
    const company = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    const {
      own,
      inStore: [elsewhere, granted],
      editor,
    } = await pharmacyEditor(company.id);
    const foreign = await buildDevice(ctx.app.db, other.id);
    await ctx.app.db
      .insert(devicePermissions)
      .values({ companyId: company.id, userId: editor.id, deviceId: Number(granted.id), canEdit: true });
    const edit = async (token: string, id: string) =>
      (
        await call(
          ctx.app,
          '/api/device/editDevice',
          {
            id,
            name: 'Renamed',
            recordInterval: 60,
            uploadInterval: 300,
            alarmVerifyInterval: 120,
            offlineJudgement: 3,
          },
          { token },
        )
      ).body.msgCode;
    // The company's administrator (a scope of the whole company, answered by the statement built
    // once): every device of the company, none of another's, whatever the order of the calls.
    const admin = await login(ctx.app, company.admin.account);
    const otherAdmin = await login(ctx.app, other.admin.account);
    expect(await edit(admin, elsewhere.id)).toBe(200);
    expect(await edit(admin, foreign.id)).not.toBe(200);
    expect(await edit(otherAdmin, foreign.id)).toBe(200);
    expect(await edit(otherAdmin, own.id)).not.toBe(200);
    // A department's member: its devices and the granted one, not the rest of the company.
    const token = await login(ctx.app, editor.account);
    expect(await edit(token, own.id)).toBe(200);
    expect(await edit(token, granted.id)).toBe(200);
    expect(await edit(token, elsewhere.id)).not.toBe(200);
    expect(await edit(token, foreign.id)).not.toBe(200);
  });
});
