import type { StoredAttribute } from '@coldchain/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deviceCalibrations } from '../calibration/calibration.table';
import { devices, sensors } from '../devices/devices.table';
import {
  equipment,
  equipmentRecords,
  equipmentSensors,
  equipmentTypes,
  patrolPlans,
} from '../equipment/equipment.table';

const DAY = 86_400_000;

const DEMO_TYPES: { code: string; name: string; attributes: StoredAttribute[] }[] = [
  {
    code: '10',
    name: 'Fridge',
    attributes: [
      {
        id: 'a1000001',
        name: 'Brand',
        kind: 'choice',
        required: false,
        options: ['Haier', 'Aucma', 'Liebherr'],
        allowOther: true,
      },
      {
        id: 'a1000002',
        name: 'Volume',
        kind: 'number',
        required: false,
        numberKind: 'integer',
        min: 50,
        max: 2000,
        unit: 'L',
      },
      { id: 'a1000003', name: 'Asset tag', kind: 'text', required: false, minLength: 4, maxLength: 10 },
    ],
  },
  {
    code: '20',
    name: 'Freezer',
    attributes: [
      {
        id: 'a2000001',
        name: 'Brand',
        kind: 'choice',
        required: false,
        options: ['Haier', 'Thermo', 'Panasonic'],
      },
      {
        id: 'a2000002',
        name: 'Set point',
        kind: 'number',
        required: false,
        numberKind: 'decimal',
        min: -90,
        max: 0,
        unit: '°C',
      },
    ],
  },
  {
    code: '30',
    name: 'Cold room',
    attributes: [
      {
        id: 'a3000001',
        name: 'Floor area',
        kind: 'number',
        required: false,
        numberKind: 'decimal',
        min: 1,
        max: 5000,
        unit: 'm²',
      },
      {
        id: 'a3000002',
        name: 'Refrigerant',
        kind: 'choice',
        required: false,
        options: ['R404A', 'R134a', 'R290'],
      },
    ],
  },
];

/** Equipment of the demo, each measured by every sensor of a demo monitor (demo-units.ts). */
const DEMO_EQUIPMENT = [
  {
    monitor: 'DEMO0001',
    type: '10',
    suffix: '0001',
    name: 'Vaccine fridge 1',
    attributes: { a1000001: 'Haier', a1000002: 300, a1000003: 'VF-001' },
  },
  {
    monitor: 'DEMO0003',
    type: '10',
    suffix: '0002',
    name: 'Pharmacy fridge',
    attributes: { a1000001: 'Aucma', a1000002: 450 },
  },
  {
    monitor: 'DEMO0005',
    type: '20',
    suffix: '0001',
    name: 'Plasma freezer',
    attributes: { a2000001: 'Thermo', a2000002: -40 },
  },
  {
    monitor: 'DEMO0007',
    type: '30',
    suffix: '0001',
    name: 'Cold room',
    attributes: { a3000001: 24.5, a3000002: 'R404A' },
  },
] as const;

/**
 * The demo's cold-chain equipment (issue 14): three types with attributes, equipment bound to
 * demo monitors' sensors, a calibration falling due within 30 days, a repair and a patrol plan.
 * Runs once per company: when it has any equipment type, what is there (a user's changes
 * included) is left alone. Monitors not bound yet are skipped (their equipment has no sensor).
 */
export async function seedDemoEquipment(db: Db, companyId: number, now = Date.now()): Promise<void> {
  const [existing] = await db
    .select({ id: equipmentTypes.id })
    .from(equipmentTypes)
    .where(eq(equipmentTypes.companyId, companyId))
    .limit(1);
  if (existing) return;
  await db.transaction(async (tx) => {
    const types = await tx
      .insert(equipmentTypes)
      .values(DEMO_TYPES.map((t) => ({ ...t, companyId })))
      .returning({ id: equipmentTypes.id, code: equipmentTypes.code });
    const monitors = await tx
      .select({ id: devices.id, serial: devices.serial, departmentId: devices.departmentId })
      .from(devices)
      .where(
        and(
          eq(devices.companyId, companyId),
          inArray(
            devices.serial,
            DEMO_EQUIPMENT.map((e) => e.monitor),
          ),
        ),
      );
    const ids = new Map<string, number>();
    for (const item of DEMO_EQUIPMENT) {
      const monitor = monitors.find((m) => m.serial === item.monitor);
      const [row] = await tx
        .insert(equipment)
        .values({
          companyId,
          typeId: types.find((t) => t.code === item.type)!.id,
          serial: `${item.type}${item.suffix}`,
          serialSuffix: item.suffix,
          name: item.name,
          departmentId: monitor?.departmentId ?? null,
          attributes: item.attributes,
          // The fridge's budget: at most an hour a month outside 2-8 °C.
          excursion: item.type === '10' ? { min: 2, max: 8, budgetMinutes: 60 } : null,
        })
        .returning({ id: equipment.id });
      ids.set(item.name, row!.id);
      if (!monitor) continue;
      const channels = await tx
        .select({ id: sensors.id })
        .from(sensors)
        .where(eq(sensors.deviceId, monitor.id));
      if (channels.length)
        await tx
          .insert(equipmentSensors)
          .values(channels.map((s) => ({ sensorId: s.id, equipmentId: row!.id, companyId })))
          .onConflictDoNothing();
    }
    await tx.insert(deviceCalibrations).values({
      companyId,
      equipmentId: ids.get('Vaccine fridge 1')!,
      calibratedAt: new Date(now - 345 * DAY),
      nextDueAt: new Date(now + 20 * DAY),
      institution: 'National Metrology Institute',
    });
    await tx.insert(equipmentRecords).values({
      companyId,
      equipmentId: ids.get('Plasma freezer')!,
      kind: 'repair',
      time: new Date(now - 12 * DAY),
      details: {
        unit: 'CoolServ Engineering',
        person: 'Tan Wei',
        faultTime: now - 12 * DAY,
        cause: 'Compressor relay failed',
        repaired: true,
        repairTime: now - 11 * DAY,
      },
    });
    await tx.insert(patrolPlans).values({
      companyId,
      name: 'Cold room twice a day',
      equipmentId: ids.get('Cold room')!,
      intervalMinutes: 12 * 60,
      startTime: new Date(Math.floor(now / DAY) * DAY),
    });
  });
}
