import type { AlarmDetailView, DeviceView, MapEquipmentView } from '@coldchain/contract';
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
import { loadEvaluationContext } from '../alarms/alarm-context';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { equipment, equipmentRecords, equipmentSensors, equipmentTypes } from '../equipment/equipment.table';

const HOUR = 3_600_000;

describe('equipment beside monitors and alarm pauses', () => {
  const ctx = useTestApp();

  /** A company with a department, a two-channel monitor in it and a fridge measured by channel 1. */
  async function setUp() {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    const token = await login(ctx.app, company.admin.account);
    const department = await buildDepartment(db, company.id, { name: 'Pharmacy' });
    const device = await buildDevice(db, company.id, {
      name: 'Logger 1',
      departmentId: department.id,
      channels: [
        { type: 'temperature', unit: '°C', min: -40, max: 85 },
        { type: 'humidity', unit: '%RH', min: 0, max: 100 },
      ],
    });
    const [type] = await db
      .insert(equipmentTypes)
      .values({ companyId: company.id, name: 'Fridge', code: '30' })
      .returning();
    const addEquipment = async (name: string, suffix: string, departmentId: number | null) => {
      const [row] = await db
        .insert(equipment)
        .values({
          companyId: company.id,
          typeId: type!.id,
          serial: `30${suffix}`,
          serialSuffix: suffix,
          name,
          departmentId,
          region: 'Shanghai Pudong',
          address: '1 Cold Lane',
        })
        .returning();
      return row!;
    };
    const fridge = await addEquipment('Vaccine fridge', '0001', department.id);
    await db
      .insert(equipmentSensors)
      .values({ sensorId: device.sensors[0]!.id, equipmentId: fridge.id, companyId: company.id });
    const post = <T>(url: string, body: unknown, as = token) => call<T>(ctx.app, url, body, { token: as });
    const sensorsOf = async () =>
      (await post<DeviceView>('/api/device/deviceDetail', { id: device.id })).body.data.sensors;
    const setUseState = (useState: number) =>
      db.update(equipment).set({ useState }).where(eq(equipment.id, fridge.id));
    /** Whether the alarm engine judges the sensor: what the pages say must match it. */
    const judged = () =>
      db.transaction(async (tx) =>
        (await loadEvaluationContext(tx, company.id, [Number(device.id)])).sensors.has(device.sensors[0]!.id),
      );
    return { company, department, device, fridge, post, sensorsOf, setUseState, addEquipment, judged };
  }

  it('says on the monitor detail which equipment a sensor measures and why its alarms are paused', async () => {
    const { company, fridge, sensorsOf, setUseState, judged } = await setUp();
    let [measured, unbound] = await sensorsOf();
    expect(measured!.equipment).toEqual({
      id: String(fridge.id),
      name: 'Vaccine fridge',
      serial: '300001',
      useState: 1,
      alarmsPaused: null,
      pausedUntil: null,
    });
    expect(unbound!.equipment).toBeNull();
    expect(await judged()).toBe(true);

    await setUseState(2);
    [measured] = await sensorsOf();
    expect(measured!.equipment).toMatchObject({
      useState: 2,
      alarmsPaused: 'underService',
      pausedUntil: null,
    });
    expect(await judged()).toBe(false);

    // Standby with a maintenance window open now: paused until the window ends.
    await setUseState(4);
    const end = new Date(Date.now() + 2 * HOUR);
    await ctx.app.db.insert(equipmentRecords).values({
      companyId: company.id,
      equipmentId: fridge.id,
      kind: 'maintenance',
      time: new Date(Date.now() - HOUR),
      endTime: end,
    });
    [measured] = await sensorsOf();
    expect(measured!.equipment).toMatchObject({ alarmsPaused: 'maintenance', pausedUntil: end.getTime() });
    expect(await judged()).toBe(false);

    await setUseState(3);
    [measured] = await sensorsOf();
    // Disposal is the lasting reason: it wins over a window that will end.
    expect(measured!.equipment).toMatchObject({ alarmsPaused: 'disposed', pausedUntil: null });
    expect(await judged()).toBe(false);
  });

  it('tells on the detail of an alarm still open that its sensor no longer raises or ends alarms', async () => {
    const { company, device, post, setUseState } = await setUp();
    const sensorId = device.sensors[0]!.id;
    const [setting] = await ctx.app.db
      .insert(alarmSettings)
      .values({
        companyId: company.id,
        carrier: 'sensor',
        targetId: sensorId,
        deviceId: Number(device.id),
        sensorId,
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        notifierIds: [],
      })
      .returning();
    const now = new Date();
    const [alarm] = await ctx.app.db
      .insert(alarmRecords)
      .values({
        companyId: company.id,
        deviceId: Number(device.id),
        sensorId,
        settingId: setting!.id,
        alarmType: 'overLimit',
        level: 1,
        alarmTime: now,
        excursionStart: now,
        dedupeKey: `pause:${setting!.id}`,
        content: { en: 'Too warm', cn: '温度过高' },
        lastValue: 12,
      })
      .returning();
    const detail = async () =>
      (await post<AlarmDetailView>('/api/alarm/alarmDetail', { id: String(alarm!.id) })).body.data;
    expect((await detail()).equipment).toMatchObject({ name: 'Vaccine fridge', alarmsPaused: null });
    await setUseState(2);
    expect((await detail()).equipment).toMatchObject({
      name: 'Vaccine fridge',
      alarmsPaused: 'underService',
    });
  });

  it('lists equipment for the map with its visible monitors, within the equipment scope', async () => {
    const { company, department, device, fridge, post, addEquipment } = await setUp();
    const spare = await addEquipment('Spare freezer', '0002', null);
    const other = await buildDepartment(ctx.app.db, company.id, { name: 'Warehouse' });
    const far = await addEquipment('Warehouse cold room', '0003', other.id);
    // The fridge is also measured by a warehouse logger, which pharmacy members may not see.
    const warehouseLogger = await buildDevice(ctx.app.db, company.id, { departmentId: other.id });
    await ctx.app.db.insert(equipmentSensors).values({
      sensorId: warehouseLogger.sensors[0]!.id,
      equipmentId: fridge.id,
      companyId: company.id,
    });

    const all = await post<{ list: MapEquipmentView[]; total: number }>('/api/device/mapEquipment', {});
    expect(all.body.msgCode).toBe(200);
    expect(all.body.data.total).toBe(3);
    const byName = new Map(all.body.data.list.map((e) => [e.name, e]));
    expect(byName.get('Vaccine fridge')).toMatchObject({
      id: String(fridge.id),
      typeName: 'Fridge',
      region: 'Shanghai Pudong',
      address: '1 Cold Lane',
      deviceIds: [device.id, warehouseLogger.id].sort((x, y) => Number(x) - Number(y)),
      alarmsPaused: null,
    });
    expect(byName.get('Spare freezer')!.deviceIds).toEqual([]);
    expect(byName.get('Warehouse cold room')!.id).toBe(String(far.id));
    expect(spare.id).toBeGreaterThan(0);

    // A pharmacy member with equipment rights sees the pharmacy's equipment only.
    const memberWith = async (tags: string[]) => {
      const role = await buildRole(ctx.app.db, company.id, department.id, tags);
      const user = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, company.id, user.id, false, {
        departmentId: department.id,
        roleId: role.id,
      });
      return login(ctx.app, user.account);
    };
    const pharmacist = await memberWith(['equipment:view']);
    const scoped = await post<{ list: MapEquipmentView[] }>('/api/device/mapEquipment', {}, pharmacist);
    expect(scoped.body.data.list.map((e) => e.name)).toEqual(['Vaccine fridge']);
    expect(scoped.body.data.list[0]!.deviceIds).toEqual([device.id]);

    const withoutRights = await memberWith(['device:view']);
    const refused = await post('/api/device/mapEquipment', {}, withoutRights);
    expect(refused.body.msgCode).not.toBe(200);
    expect(refused.body.data).toBeNull();
  });
});
