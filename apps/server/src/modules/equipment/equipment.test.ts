import type {
  EquipmentDetail,
  EquipmentItem,
  EquipmentRecordView,
  Page,
  SensorOption,
} from '@coldchain/contract';
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
import { loadEvaluationContext } from '../alarms/alarm-context';
import { auditLog } from '../audit/audit.table';
import { deviceGroups } from '../groups/groups.table';

const DAY = 86_400_000;

describe('cold-chain equipment', () => {
  const ctx = useTestApp();

  async function setUp() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const type = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Fridge',
      code: '30',
      attributes: [
        { name: 'Tag', kind: 'text', required: true },
        { name: 'Volume', kind: 'number', numberKind: 'integer', min: 10, max: 900 },
        { name: 'Brand', kind: 'choice', options: ['Haier', 'Aucma'], allowOther: false },
      ],
    });
    const attrs = (
      await post<{ attributes: { id: string }[] }>('/api/equipmentType/typeDetail', { id: type.body.data.id })
    ).body.data.attributes.map((a) => a.id);
    const save = (body: Record<string, unknown>) =>
      post<{ id: string; serial: string }>('/api/equipment/saveEquipment', {
        typeId: type.body.data.id,
        name: 'Vaccine fridge',
        attributes: { [attrs[0]!]: 'AB12' },
        ...body,
      });
    return { company, token, post, typeId: type.body.data.id, attrs, save };
  }

  it('makes the serial from the type code and a unique 4-digit suffix, and checks values by kind', async () => {
    const { post, save, attrs } = await setUp();
    const first = await save({ serialSuffix: '0007' });
    expect(first.body.data.serial).toBe('300007');
    expect((await save({ serialSuffix: '0007' })).body.msgContent).toBe(
      'Serial number does not exist or is already used',
    );
    expect((await save({ serialSuffix: '7' })).body.msgContent).toBe(
      'Custom serial number must be exactly 4 digits',
    );
    const bad = [
      [{ [attrs[0]!]: 'AB' }, 'Tag must be text of 4-10 characters'],
      [{ [attrs[0]!]: 'AB12', [attrs[1]!]: 10.5 }, 'Volume must be a whole number'],
      [{ [attrs[0]!]: 'AB12', [attrs[1]!]: 901 }, 'Volume must be at most 900'],
      [{ [attrs[0]!]: 'AB12', [attrs[2]!]: 'Midea' }, 'Brand must be one of its options'],
      [{}, 'Tag is required'],
    ] as const;
    for (const [attributes, message] of bad)
      expect((await save({ serialSuffix: '0008', attributes })).body.msgContent).toBe(message);
    const good = await save({
      serialSuffix: '0008',
      attributes: { [attrs[0]!]: 'AB12', [attrs[2]!]: 'Haier' },
    });
    expect(good.body.msgCode).toBe(200);
    const list = await post<Page<EquipmentItem>>('/api/equipment/pageEquipment', { keyword: '300008' });
    expect(list.body.data.list.map((e) => e.serial)).toEqual(['300008']);
    const byState = await post<Page<EquipmentItem>>('/api/equipment/pageEquipment', { useState: 4 });
    expect(byState.body.data.total).toBe(0);
  });

  it('binds a sensor to at most one equipment and shows it on the detail page', async () => {
    const { company, post, save } = await setUp();
    const device = await buildDevice(ctx.app.db, company.id);
    const sensorId = String(device.sensors[0]!.id);
    const a = await save({ serialSuffix: '0001', sensorIds: [sensorId] });
    const b = await save({ serialSuffix: '0002', name: 'Second', sensorIds: [sensorId] });
    expect(b.body.msgContent).toMatch(/^Sensor .* is already bound to equipment 300001 Vaccine fridge$/);
    const detail = await post<EquipmentDetail>('/api/equipment/equipmentDetail', { id: a.body.data.id });
    expect(detail.body.data.sensors.map((s) => s.id)).toEqual([sensorId]);
    const options = await post<SensorOption[]>('/api/equipment/sensorOptions', {});
    expect(options.body.data.find((o) => o.id === sensorId)?.equipmentId).toBe(a.body.data.id);
  });

  it('limits a member to the equipment of their department and below', async () => {
    const { company, save, typeId } = await setUp();
    const dept = await buildDepartment(ctx.app.db, company.id);
    const other = await buildDepartment(ctx.app.db, company.id);
    const role = await buildRole(ctx.app.db, company.id, dept.id, ['equipment:view', 'equipment:edit']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id, false, { departmentId: dept.id, roleId: role.id });
    const mine = await save({ serialSuffix: '0001', departmentId: String(dept.id) });
    const theirs = await save({ serialSuffix: '0002', departmentId: String(other.id) });
    const token = await login(ctx.app, member.account);
    const page = await call<Page<EquipmentItem>>(ctx.app, '/api/equipment/pageEquipment', {}, { token });
    expect(page.body.data.list.map((e) => e.id)).toEqual([mine.body.data.id]);
    const hidden = await call(
      ctx.app,
      '/api/equipment/equipmentDetail',
      { id: theirs.body.data.id },
      { token },
    );
    expect(hidden.body.msgContent).toBe('The equipment does not exist');
    const created = await call<{ id: string }>(
      ctx.app,
      '/api/equipment/saveEquipment',
      { typeId, serialSuffix: '0003', name: 'Mine too', attributes: {} },
      { token },
    );
    // Without a department the member's own is taken, so they still see what they made.
    expect(created.body.msgContent).toBe('Tag is required');
  });

  it('keeps a timeline of audited records; scrap is refused while grouped, final, and silences alarms', async () => {
    const { company, post, save } = await setUp();
    const device = await buildDevice(ctx.app.db, company.id);
    const sensorId = device.sensors[0]!.id;
    const [root] = await ctx.app.db.select().from(deviceGroups).where(eq(deviceGroups.companyId, company.id));
    expect(root).toBeUndefined();
    const dept = await buildDepartment(ctx.app.db, company.id);
    const [group] = await ctx.app.db
      .insert(deviceGroups)
      .values({ companyId: company.id, departmentId: dept.id, name: 'Cold room A' })
      .returning();
    const { body } = await save({
      serialSuffix: '0001',
      groupId: String(group!.id),
      sensorIds: [String(sensorId)],
    });
    const equipmentId = body.data.id;
    const add = (record: Record<string, unknown>) =>
      post<{ id: string }>('/api/equipment/addRecord', { equipmentId, ...record });
    const now = Date.now();
    expect(
      (
        await add({
          kind: 'repair',
          unit: 'CoolFix',
          person: 'Li',
          faultTime: now - 2 * DAY,
          cause: 'Door seal',
          repaired: true,
        })
      ).body.msgContent,
    ).toBe('Repair time is required when the fault was repaired');
    expect(
      (
        await add({
          kind: 'repair',
          unit: 'CoolFix',
          person: 'Li',
          faultTime: now - 2 * DAY,
          cause: 'Door seal',
          repaired: true,
          repairTime: now - DAY,
        })
      ).body.msgCode,
    ).toBe(200);
    expect(
      (
        await add({
          kind: 'calibration',
          calibratedAt: now - 3 * DAY,
          nextDueAt: now + 20 * DAY,
          institution: 'NIM',
        })
      ).body.msgCode,
    ).toBe(200);
    const timeline = await post<Page<EquipmentRecordView>>('/api/equipment/pageRecords', { equipmentId });
    expect(timeline.body.data.list.map((r) => r.kind)).toEqual(['repair', 'calibration']);
    expect(timeline.body.data.list[1]).toMatchObject({ institution: 'NIM', nextDueAt: now + 20 * DAY });
    const item = await post<EquipmentDetail>('/api/equipment/equipmentDetail', { id: equipmentId });
    expect(item.body.data.nextCalibrationTime).toBe(now + 20 * DAY);

    // Alarm suppression: the sensor is judged while in use, not while under service.
    const judged = async () =>
      ctx.app.db.transaction(async (tx) =>
        (await loadEvaluationContext(tx, company.id, [Number(device.id)])).sensors.has(sensorId),
      );
    expect(await judged()).toBe(true);
    await save({ id: equipmentId, serialSuffix: '0001', useState: 2 });
    expect(await judged()).toBe(false);
    expect(
      (await post<EquipmentDetail>('/api/equipment/equipmentDetail', { id: equipmentId })).body.data
        .alarmSuppressed,
    ).toBe(true);
    await save({ id: equipmentId, serialSuffix: '0001', useState: 1 });
    await add({
      kind: 'maintenance',
      unit: 'CoolFix',
      person: 'Li',
      startTime: now - 60_000,
      endTime: now + DAY,
    });
    expect(await judged()).toBe(false);

    const scrap = { kind: 'scrap', scrapType: 'scrap', time: now };
    expect((await add(scrap)).body.msgContent).toBe(
      'Equipment bound to a group cannot be scrapped until unbound',
    );
    await save({ id: equipmentId, serialSuffix: '0001', groupId: '' });
    expect((await add(scrap)).body.msgCode).toBe(200);
    expect((await add(scrap)).body.msgContent).toBe('The equipment is already disposed');
    expect((await save({ id: equipmentId, serialSuffix: '0001', useState: 1 })).body.msgContent).toBe(
      'Disposed equipment cannot be changed',
    );
    const disposed = await post<EquipmentDetail>('/api/equipment/equipmentDetail', { id: equipmentId });
    expect(disposed.body.data.useState).toBe(3);
    const actions = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.targetType, 'equipment')));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'equipment.save',
        'equipment.repair',
        'equipment.maintenance',
        'equipment.scrap',
      ]),
    );
  });

  it('asks for the signature password on a patrol record and transfers in batch', async () => {
    const { company, token, post, save } = await setUp();
    const { body } = await save({ serialSuffix: '0001' });
    const patrol = {
      equipmentId: body.data.id,
      kind: 'patrol',
      time: Date.now(),
      person: 'Wang',
      reading: 4.2,
      condition: 'normal',
    };
    expect((await post('/api/equipment/addRecord', patrol)).body.msgContent).toBe(
      'Signature password not set, so the feature cannot be used',
    );
    await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'Sign1234', confirmPassword: 'Sign1234' },
      { token },
    );
    expect(
      (await post('/api/equipment/addRecord', { ...patrol, signPassword: 'Wrong999' })).body.msgContent,
    ).toBe('The signature password is incorrect');
    expect(
      (await post('/api/equipment/addRecord', { ...patrol, signPassword: 'Sign1234' })).body.msgCode,
    ).toBe(200);
    const dept = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    const moved = await post<{ count: number }>('/api/equipment/batchTransfer', {
      ids: [body.data.id],
      toDepartmentId: String(dept.id),
    });
    expect(moved.body.data.count).toBe(1);
    const records = await post<Page<EquipmentRecordView>>('/api/equipment/pageRecords', {
      equipmentId: body.data.id,
      kind: 'transfer',
    });
    expect(records.body.data.list[0]).toMatchObject({ toDepartmentName: 'Pharmacy', kind: 'transfer' });
  });
});
