import type { DevicePermissionView, DeviceView, Page } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
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
import { devicePermissions } from '../org/org.table';
import { readings } from '../telemetry/readings.table';
import { devices } from './devices.table';

async function setUp(ctx: { app: FastifyInstance }) {
  const company = await buildCompany(ctx.app.db);
  const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
  const store = await buildDepartment(ctx.app.db, company.id, { name: 'Cold Store' });
  const token = await login(ctx.app, company.admin.account);
  return { company, pharmacy, store, token };
}

async function auditCount(app: FastifyInstance, companyId: number, action: string) {
  const rows = await app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, action)));
  return rows.length;
}

describe('batch transfer', () => {
  const ctx = useTestApp();

  it('moves devices to a department, into a group of it or out of groups that no longer fit', async () => {
    const { company, pharmacy, store, token } = await setUp(ctx);
    const add = (departmentId: number, name: string) =>
      call<{ id: string }>(
        ctx.app,
        '/api/group/addGroup',
        { departmentId: String(departmentId), name },
        { token },
      );
    const pharmacyGroup = (await add(pharmacy.id, 'Pharm group')).body.data.id;
    const storeGroup = (await add(store.id, 'Store group')).body.data.id;
    const a = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const b = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    await ctx.app.db
      .update(devices)
      .set({ groupId: Number(pharmacyGroup) })
      .where(eq(devices.id, Number(a.id)));

    const moved = await call<{ count: number }>(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [a.id, b.id], departmentId: String(store.id) },
      { token },
    );
    expect(moved.body.data).toEqual({ count: 2 });
    const page = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      { departmentId: String(store.id) },
      { token },
    );
    expect(page.body.data.list.map((d) => [d.departmentId, d.groupId])).toEqual([
      [String(store.id), null],
      [String(store.id), null],
    ]);

    const intoGroup = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [a.id], departmentId: String(store.id), groupId: storeGroup },
      { token },
    );
    expect(intoGroup.body.msgCode).toBe(200);
    const wrongGroup = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [a.id], departmentId: String(store.id), groupId: pharmacyGroup },
      { token, language: 'cn' },
    );
    expect(wrongGroup.body.msgContent).toBe('分组必须属于设备所在部门');
    // Staying in the department keeps the group.
    await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [a.id], departmentId: String(store.id) },
      { token },
    );
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(a.id)));
    expect(row!.groupId).toBe(Number(storeGroup));
    expect(await auditCount(ctx.app, company.id, 'device.transfer')).toBe(4);
  });

  it('needs a selection, editable devices and a department in scope; changes nothing otherwise', async () => {
    const { company, pharmacy, store, token } = await setUp(ctx);
    const empty = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [], departmentId: String(store.id) },
      { token },
    );
    expect(empty.body.msgContent).toBe('Select at least one device, time period or record');
    const emptyCn = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { departmentId: String(store.id) },
      { token, language: 'cn' },
    );
    expect(emptyCn.body.msgContent).toBe('请至少选择一个设备、时间段或记录');

    const mine = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const other = await buildCompany(ctx.app.db);
    const foreign = await buildDevice(ctx.app.db, other.id);
    const mixed = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [mine.id, foreign.id], departmentId: String(store.id) },
      { token },
    );
    expect(mixed.body.msgContent).toBe('The device does not exist');
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(mine.id)));
    expect(row!.departmentId).toBe(pharmacy.id);

    // A member of the pharmacy can neither reach the store's devices nor send devices to the store.
    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view', 'device:edit']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id, false, { departmentId: pharmacy.id, roleId: role.id });
    const memberToken = await login(ctx.app, member.account);
    const storeDevice = await buildDevice(ctx.app.db, company.id, { departmentId: store.id });
    const notEditable = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [storeDevice.id], departmentId: String(pharmacy.id) },
      { token: memberToken },
    );
    expect(notEditable.body.msgContent).toBe('The device does not exist');
    const outOfScope = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [mine.id], departmentId: String(store.id) },
      { token: memberToken },
    );
    expect(outOfScope.body.msgContent).toBe('No permission for this service or operation');
    expect(await auditCount(ctx.app, company.id, 'device.transfer')).toBe(0);

    const viewerRole = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view']);
    const viewer = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, viewer.id, false, {
      departmentId: pharmacy.id,
      roleId: viewerRole.id,
    });
    const viewerToken = await login(ctx.app, viewer.account);
    const refused = await call(
      ctx.app,
      '/api/device/batchTransfer',
      { deviceIds: [mine.id], departmentId: String(pharmacy.id) },
      { token: viewerToken },
    );
    expect(refused.body.msgContent).toBe('No permission for this service or operation');
  });
});

describe('batch permission', () => {
  const ctx = useTestApp();

  it('grants view or edit per user, lists the grants, and removes them with none', async () => {
    const { company, pharmacy, store, token } = await setUp(ctx);
    const storeDevice = await buildDevice(ctx.app.db, company.id, {
      departmentId: store.id,
      name: 'Store fridge',
    });
    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view', 'device:edit']);
    const nurse = await buildUser(ctx.app.db, { name: 'Nurse' });
    await addMember(ctx.app.db, company.id, nurse.id, false, { departmentId: pharmacy.id, roleId: role.id });
    const nurseToken = await login(ctx.app, nurse.account);
    const before = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      {},
      { token: nurseToken },
    );
    expect(before.body.data.total).toBe(0);

    const grant = (permission: string) =>
      call(
        ctx.app,
        '/api/device/batchPermission',
        { deviceIds: [storeDevice.id], userIds: [String(nurse.id)], permission },
        { token },
      );
    expect((await grant('view')).body.msgCode).toBe(200);
    const seen = await call<Page<DeviceView>>(ctx.app, '/api/device/pageDevices', {}, { token: nurseToken });
    expect(seen.body.data.list.map((d) => d.name)).toEqual(['Store fridge']);
    const list = await call<DevicePermissionView[]>(
      ctx.app,
      '/api/device/devicePermissions',
      { deviceId: storeDevice.id },
      { token },
    );
    expect(list.body.data).toEqual([
      { userId: String(nurse.id), name: 'Nurse', account: nurse.account, permission: 'view' },
    ]);
    // View is not edit.
    const remark = await call(
      ctx.app,
      '/api/device/setRemark',
      { id: storeDevice.id, remark: 'x' },
      { token: nurseToken },
    );
    expect(remark.body.msgContent).toBe('The device does not exist');

    expect((await grant('edit')).body.msgCode).toBe(200);
    const edited = await call(
      ctx.app,
      '/api/device/setRemark',
      { id: storeDevice.id, remark: 'x' },
      { token: nurseToken },
    );
    expect(edited.body.msgCode).toBe(200);
    const [row] = await ctx.app.db
      .select()
      .from(devicePermissions)
      .where(eq(devicePermissions.userId, nurse.id));
    expect(row!.canEdit).toBe(true);

    expect((await grant('none')).body.msgCode).toBe(200);
    const after = await call<Page<DeviceView>>(ctx.app, '/api/device/pageDevices', {}, { token: nurseToken });
    expect(after.body.data.total).toBe(0);
    expect(await auditCount(ctx.app, company.id, 'device.permission')).toBe(3);
  });

  it("refuses people outside the caller's departments, an empty choice and an unknown level", async () => {
    const { company, pharmacy, store, token } = await setUp(ctx);
    const device = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const stranger = await buildUser(ctx.app.db);
    const notMember = await call(
      ctx.app,
      '/api/device/batchPermission',
      { deviceIds: [device.id], userIds: [String(stranger.id)], permission: 'view' },
      { token },
    );
    expect(notMember.body.msgContent).toBe(
      'Device permissions can only be given to people of your departments',
    );

    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view', 'device:edit']);
    const pharmacist = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, pharmacist.id, false, {
      departmentId: pharmacy.id,
      roleId: role.id,
    });
    const storeKeeper = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, storeKeeper.id, false, { departmentId: store.id });
    const pharmacistToken = await login(ctx.app, pharmacist.account);
    const beyond = await call(
      ctx.app,
      '/api/device/batchPermission',
      { deviceIds: [device.id], userIds: [String(storeKeeper.id)], permission: 'edit' },
      { token: pharmacistToken, language: 'cn' },
    );
    expect(beyond.body.msgContent).toBe('只能为本部门及下级部门的人员设置设备权限');

    const noUsers = await call(
      ctx.app,
      '/api/device/batchPermission',
      { deviceIds: [device.id], userIds: [], permission: 'view' },
      { token },
    );
    expect(noUsers.body.msgContent).toBe('Select at least one person');
    const badLevel = await call(
      ctx.app,
      '/api/device/batchPermission',
      { deviceIds: [device.id], userIds: [String(pharmacist.id)], permission: 'owner' },
      { token },
    );
    expect(badLevel.body.msgContent).toBe('Permission must be none, view or edit');
    const noDevices = await call(
      ctx.app,
      '/api/device/batchPermission',
      { deviceIds: [], userIds: [String(pharmacist.id)], permission: 'view' },
      { token },
    );
    expect(noDevices.body.msgContent).toBe('Select at least one device, time period or record');
    expect(await ctx.app.db.select().from(devicePermissions)).toEqual([]);
  });
});

describe('data export', () => {
  const ctx = useTestApp();
  const START = Date.UTC(2026, 0, 1, 0, 0, 0);

  async function exportFile(token: string, body: Record<string, unknown>, language: 'en' | 'cn' = 'en') {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/device/exportData',
      headers: { 'content-type': 'application/json', accessToken: token, language },
      payload: JSON.stringify(body),
    });
  }

  async function withReadings() {
    const { company, pharmacy, token } = await setUp(ctx);
    const device = await buildDevice(ctx.app.db, company.id, {
      departmentId: pharmacy.id,
      name: 'Vaccine fridge, "A"',
      channels: [
        { type: 'temperature', unit: '°C', min: -40, max: 85 },
        { type: 'humidity', unit: '%RH', min: 0, max: 100 },
      ],
    });
    const [t, h] = device.sensors;
    await ctx.app.db.insert(readings).values([
      { sensorId: t!.id, ts: new Date(START), value: 4.5 },
      { sensorId: t!.id, ts: new Date(START + 300_000), value: 4.75 },
      { sensorId: h!.id, ts: new Date(START), value: 55 },
      // Outside the period.
      { sensorId: t!.id, ts: new Date(START + 86_400_000 * 2), value: 9 },
    ]);
    return { company, device, token };
  }

  it('writes the readings of the period as csv, times in the chosen zone, and audits it', async () => {
    const { company, device, token } = await withReadings();
    const response = await exportFile(token, {
      deviceIds: [device.id],
      startTime: START,
      endTime: START + 86_400_000,
      format: 'csv',
      timeZone: 'Asia/Kuala_Lumpur',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="device-data-20260101-20260102.csv"; filename*=UTF-8\'\'device-data-20260101-20260102.csv',
    );
    const text = response.body;
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines).toEqual([
      'Serial number,Device,Channel,Sensor,Time,Value,Unit',
      `${device.serial},"Vaccine fridge, ""A""",1,Temperature 1,2026-01-01 08:00:00,4.5,°C`,
      `${device.serial},"Vaccine fridge, ""A""",1,Temperature 1,2026-01-01 08:05:00,4.75,°C`,
      `${device.serial},"Vaccine fridge, ""A""",2,Humidity 2,2026-01-01 08:00:00,55,%RH`,
    ]);
    expect(await auditCount(ctx.app, company.id, 'device.exportData')).toBe(1);
  });

  it("writes xlsx with headers in the caller's language", async () => {
    const { device, token } = await withReadings();
    const response = await exportFile(
      token,
      { deviceIds: [device.id], startTime: START, endTime: START + 86_400_000, format: 'xlsx' },
      'cn',
    );
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('数据')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '序列号',
      '设备',
      '通道',
      '传感器',
      '时间',
      '数值',
      '单位',
    ]);
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(2).getCell(5).value).toBe('2026-01-01 00:00:00');
    expect(sheet.getRow(2).getCell(6).value).toBe(4.5);
  });

  it('needs devices, a period and a format, the export right, and only visible devices', async () => {
    const { company, device, token } = await withReadings();
    const json = async (body: Record<string, unknown>, t = token, language: 'en' | 'cn' = 'en') =>
      (await exportFile(t, body, language)).json() as { msgContent: string };
    const period = { startTime: START, endTime: START + 86_400_000 };
    expect((await json({ deviceIds: [], ...period, format: 'csv' })).msgContent).toBe(
      'Select at least one device, time period or record',
    );
    expect((await json({ deviceIds: [device.id], format: 'csv' })).msgContent).toBe(
      'Select at least one device, time period or record',
    );
    expect((await json({ deviceIds: [device.id], ...period }, token, 'cn')).msgContent).toBe(
      '请选择文件格式：xlsx、csv 或 pdf',
    );
    expect((await json({ deviceIds: [device.id], ...period, format: 'docx' })).msgContent).toBe(
      'Select a file format: xlsx, csv or pdf',
    );
    expect(
      (await json({ deviceIds: [device.id], startTime: START, endTime: START - 1, format: 'csv' }))
        .msgContent,
    ).toBe('End time must be after the start time');
    expect(
      (
        await json({
          deviceIds: [device.id],
          startTime: START,
          endTime: START + 400 * 86_400_000,
          format: 'csv',
        })
      ).msgContent,
    ).toBe('The export period may cover at most 366 days');

    const other = await buildCompany(ctx.app.db);
    const otherToken = await login(ctx.app, other.admin.account);
    expect((await json({ deviceIds: [device.id], ...period, format: 'csv' }, otherToken)).msgContent).toBe(
      'The device does not exist',
    );
    const role = await buildRole(ctx.app.db, company.id, (await buildDepartment(ctx.app.db, company.id)).id, [
      'device:view',
    ]);
    const viewer = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, viewer.id, false, { roleId: role.id });
    const viewerToken = await login(ctx.app, viewer.account);
    expect((await json({ deviceIds: [device.id], ...period, format: 'csv' }, viewerToken)).msgContent).toBe(
      'No permission for this service or operation',
    );
    expect(await auditCount(ctx.app, company.id, 'device.exportData')).toBe(0);
  });
});
