import type {
  EquipmentDetail,
  EquipmentItem,
  EquipmentRecordView,
  EquipmentTypeView,
  Page,
  PatrolPlanView,
} from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { addDevice } from '../devices/devices.service';
import { addInventory } from '../inventory/inventory.service';
import { seedDemoEquipment } from './demo-equipment';
import { DEMO_ACCOUNT, DEMO_PASSWORD, seedDemo } from './demo-seed';
import { DEMO_UNITS, demoUnitInventory } from './demo-units';

const DAY = 86_400_000;

describe('demo equipment', () => {
  const ctx = useTestApp();

  it('seeds types, equipment on demo monitors, a due calibration, a repair and a patrol plan, once', async () => {
    const { companyId } = await seedDemo(ctx.app.db);
    // Two demo monitors bound (as demo-fleet.ts binds them), the rest not yet.
    const units = DEMO_UNITS.filter((u) => u.serial === 'DEMO0001' || u.serial === 'DEMO0005');
    await addInventory(ctx.app.db, units.map(demoUnitInventory));
    for (const unit of units)
      await addDevice(
        ctx.app.db,
        { companyId: companyId!, userId: null, ip: '' },
        { serial: unit.serial, name: unit.name },
      );
    await seedDemoEquipment(ctx.app.db, companyId!);
    await seedDemoEquipment(ctx.app.db, companyId!);

    const token = await login(ctx.app, DEMO_ACCOUNT, DEMO_PASSWORD);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const types = await post<Page<EquipmentTypeView>>('/api/equipmentType/pageTypes', {});
    expect(types.body.data.list.map((t) => [t.name, t.attributes.length > 0])).toEqual([
      ['Fridge', true],
      ['Freezer', true],
      ['Cold room', true],
    ]);
    const list = await post<Page<EquipmentItem>>('/api/equipment/pageEquipment', { pageSize: 50 });
    expect(list.body.data.total).toBe(4);
    // Every stored value fits its type.
    expect(list.body.data.list.every((e) => e.attributeIssueCount === 0)).toBe(true);
    const fridge = list.body.data.list.find((e) => e.name === 'Vaccine fridge 1')!;
    expect(fridge.serial).toBe('100001');
    expect(fridge.sensorCount).toBe(DEMO_UNITS.find((u) => u.serial === 'DEMO0001')!.channels.length);
    expect(fridge.nextCalibrationTime! - Date.now()).toBeLessThan(30 * DAY);
    expect(fridge.nextCalibrationTime! - Date.now()).toBeGreaterThan(0);
    const detail = await post<EquipmentDetail>('/api/equipment/equipmentDetail', { id: fridge.id });
    expect(detail.body.data.excursion).toEqual({ min: 2, max: 8, budgetMinutes: 60 });
    const room = list.body.data.list.find((e) => e.name === 'Cold room')!;
    expect(room.sensorCount).toBe(0);

    const freezer = list.body.data.list.find((e) => e.name === 'Plasma freezer')!;
    const records = await post<Page<EquipmentRecordView>>('/api/equipment/pageRecords', {
      equipmentId: freezer.id,
    });
    expect(records.body.data.list).toEqual([expect.objectContaining({ kind: 'repair', repaired: true })]);
    const plans = await post<Page<PatrolPlanView>>('/api/equipment/pagePatrolPlans', {
      equipmentId: room.id,
    });
    expect(plans.body.data.list).toEqual([
      expect.objectContaining({ intervalHours: 12, equipmentName: 'Cold room' }),
    ]);
  });
});
