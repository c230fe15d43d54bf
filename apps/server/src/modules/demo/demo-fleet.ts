import { FREEZER, FRIDGE } from '@coldchain/simulator/curve';
import { backfillRecords, recordAt, type SimulatedDevice } from '@coldchain/simulator/payload';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { addDevice } from '../devices/devices.service';
import { devices, sensors } from '../devices/devices.table';
import type { DeviceDirectory } from '../ingest/device-directory';
import type { IngestService } from '../ingest/ingest.service';
import { addInventory, type InventoryItem } from '../inventory/inventory.service';
import type { InventoryChannel } from '../inventory/inventory.table';
import { demoNotifier, seedDemoAlarmSettings } from './demo-alarms';
import { type DemoGroup, seedDemoOrganisation } from './demo-organisation';
import { placeDemoDevices } from './demo-positions';

const HISTORY_DAYS = 7;
const HISTORY_STEP_MS = 5 * 60_000;
/** The demo's live feed: one reading per device this often. */
export const DEMO_FEED_INTERVAL_MS = 60_000;

interface DemoUnit {
  serial: string;
  name: string;
  /** Where it stands: a group of one of the demo departments (demo-organisation.ts). */
  group: DemoGroup;
  kind: 'fridge' | 'freezer';
  channels: InventoryChannel[];
  /** Stopped reporting three hours ago. */
  offline?: boolean;
  /** Running warm: its readings sit above 8 °C. */
  warm?: boolean;
}

const t = (ch: number, min = -40, max = 85): InventoryChannel => ({
  ch,
  type: 'temperature',
  unit: '°C',
  min,
  max,
});
const h = (ch: number): InventoryChannel => ({ ch, type: 'humidity', unit: '%RH', min: 0, max: 100 });

/**
 * Twelve monitors with one to four channels: vaccine fridges, freezers, a cold room, a truck,
 * spread over the groups of the two demo departments (Pharmacy and Cold Store).
 */
export const DEMO_UNITS: DemoUnit[] = [
  {
    serial: 'DEMO0001',
    name: 'Vaccine fridge 1',
    group: 'Vaccine fridges',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0002',
    name: 'Vaccine fridge 2',
    group: 'Vaccine fridges',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  { serial: 'DEMO0003', name: 'Pharmacy fridge', group: 'Vaccine fridges', kind: 'fridge', channels: [t(1)] },
  {
    serial: 'DEMO0004',
    name: 'Blood bank fridge',
    group: 'Blood and samples',
    kind: 'fridge',
    channels: [t(1), t(2)],
  },
  {
    serial: 'DEMO0005',
    name: 'Plasma freezer',
    group: 'Blood and samples',
    kind: 'freezer',
    channels: [t(1, -200, 200)],
  },
  {
    serial: 'DEMO0006',
    name: 'Sample freezer',
    group: 'Blood and samples',
    kind: 'freezer',
    channels: [t(1, -200, 200), t(2, -200, 200)],
  },
  {
    serial: 'DEMO0007',
    name: 'Cold room',
    group: 'Cold rooms',
    kind: 'fridge',
    channels: [t(1), h(2), t(3), t(4)],
  },
  {
    serial: 'DEMO0008',
    name: 'Dairy display',
    group: 'Retail and transport',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0009',
    name: 'Produce cold room',
    group: 'Cold rooms',
    kind: 'fridge',
    channels: [t(1), h(2), t(3)],
  },
  {
    serial: 'DEMO0010',
    name: 'Delivery truck',
    group: 'Retail and transport',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0011',
    name: 'Lab fridge (unplugged)',
    group: 'Wards and labs',
    kind: 'fridge',
    channels: [t(1)],
    offline: true,
  },
  {
    serial: 'DEMO0012',
    name: 'Ward fridge (warm)',
    group: 'Wards and labs',
    kind: 'fridge',
    channels: [t(1), h(2)],
    warm: true,
  },
];

const WARM_FRIDGE = { ...FRIDGE, setPoint: 10 };

function simulated(unit: DemoUnit, index: number): SimulatedDevice {
  return {
    serial: unit.serial,
    key: '',
    profile: unit.warm ? WARM_FRIDGE : unit.kind === 'freezer' ? FREEZER : FRIDGE,
    seed: 500 + index,
    channelCount: unit.channels.length,
    humidityChannels: unit.channels.filter((c) => c.type === 'humidity').map((c) => c.ch),
  };
}

/**
 * Binds the demo monitors to the demo company (once) and fills their history: seven days of
 * five-minute readings on the first start, and the gap since the last reading on later starts,
 * as a logger back-fills after an outage. Readings go through the real ingest path.
 */
export async function seedDemoFleet(
  db: Db,
  companyId: number,
  ingest: IngestService,
  directory: DeviceDirectory,
) {
  const inventory: InventoryItem[] = DEMO_UNITS.map((u) => ({
    serial: u.serial,
    model: u.channels.length === 1 ? 'CC-T1' : `CC-T${u.channels.length}`,
    version: u.channels.length > 2 ? 'elite' : 'standard',
    channels: u.channels,
  }));
  await addInventory(db, inventory);
  const existing = await db
    .select({ serial: devices.serial })
    .from(devices)
    .where(
      inArray(
        devices.serial,
        DEMO_UNITS.map((u) => u.serial),
      ),
    );
  const bound = new Set(existing.map((d) => d.serial));
  const placements = await seedDemoOrganisation(db, companyId);
  const notifier = await demoNotifier(db);
  for (const unit of DEMO_UNITS) {
    const place = placements.get(unit.group)!;
    if (!bound.has(unit.serial)) {
      const added = await addDevice(
        db,
        { companyId, userId: null, ip: '' },
        {
          serial: unit.serial,
          name: unit.name,
          departmentId: String(place.departmentId),
          groupId: String(place.groupId),
        },
      );
      // Once, when bound: settings a demo user deletes stay deleted.
      if (notifier) await seedDemoAlarmSettings(db, companyId, added.id, unit.kind, notifier);
    }
    // A demo bound before departments existed gets its place once; later moves by users stay.
    else
      await db
        .update(devices)
        .set({ departmentId: place.departmentId, groupId: place.groupId })
        .where(
          and(
            eq(devices.serial, unit.serial),
            eq(devices.companyId, companyId),
            isNull(devices.departmentId),
          ),
        );
  }

  await placeDemoDevices(db, companyId);

  const now = Date.now();
  for (const [index, unit] of DEMO_UNITS.entries()) {
    const device = await directory.find(unit.serial);
    if (!device) continue;
    const [latest] = await db
      .select({ updateTime: sensors.updateTime })
      .from(sensors)
      .where(and(eq(sensors.deviceId, device.id), eq(sensors.channel, 1)));
    const end = unit.offline ? now - 3 * 3_600_000 : now;
    const from = Math.max(
      latest?.updateTime ? latest.updateTime.getTime() + HISTORY_STEP_MS : 0,
      now - HISTORY_DAYS * 86_400_000,
    );
    const aligned = Math.ceil(from / HISTORY_STEP_MS) * HISTORY_STEP_MS;
    const records = backfillRecords(simulated(unit, index), aligned, end, HISTORY_STEP_MS);
    for (let i = 0; i < records.length; i += 500) await ingest.ingest(device, records.slice(i, i + 500));
    // Seeding went through ingest, which stamps last contact as now; this one stopped at `end`.
    // The server's offline sweep then finds it silent and raises its offline alarm, as it would
    // for a real monitor; the warm one's over-limit alarm came from its history, through the engine.
    if (unit.offline)
      await db
        .update(devices)
        .set({ lastSeenAt: new Date(end) })
        .where(eq(devices.id, device.id));
  }
}

/** Feeds every live demo monitor one reading per interval, through the real ingest path. */
export function startDemoFeed(
  ingest: IngestService,
  directory: DeviceDirectory,
  everyMs = DEMO_FEED_INTERVAL_MS,
) {
  const timer = setInterval(async () => {
    for (const [index, unit] of DEMO_UNITS.entries()) {
      if (unit.offline) continue;
      const device = await directory.find(unit.serial);
      if (device)
        await ingest.ingest(device, [recordAt(simulated(unit, index), Date.now())]).catch(() => undefined);
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
