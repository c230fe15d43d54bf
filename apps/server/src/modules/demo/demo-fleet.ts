import { and, eq, inArray, isNull, min } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AlarmEvaluator } from '../alarms/alarm-evaluator';
import { addDevice } from '../devices/devices.service';
import { devices, sensors } from '../devices/devices.table';
import type { DeviceDirectory } from '../ingest/device-directory';
import type { IngestService } from '../ingest/ingest.service';
import { addInventory } from '../inventory/inventory.service';
import { sweepOfflineDevices } from '../telemetry/offline-sweep';
import { users } from '../users/users.table';
import { type NewDemoMonitor, seedDemoAlarmSettings } from './demo-alarms';
import { seedDemoEquipment } from './demo-equipment';
import { seedDemoOrganisation } from './demo-organisation';
import { seedDemoPeople } from './demo-people';
import { placeDemoDevices } from './demo-positions';
import { resolvePowerCutAlarms } from './demo-resolutions';
import { DEMO_ACCOUNT } from './demo-seed';
import { demoEvents, demoRecordAt, demoRecords, silentFrom } from './demo-story';
import { DEMO_UNITS, demoUnitInventory } from './demo-units';

const HISTORY_DAYS = 7;
const HISTORY_STEP_MS = 5 * 60_000;
/** Records per ingest call: a logger's back-fill after a long outage comes in messages this size. */
const RECORDS_PER_MESSAGE = 500;
/** The demo's live feed: one reading per device this often. */
export const DEMO_FEED_INTERVAL_MS = 60_000;

/** The parts of the app the demo feeds its monitors through, as a device's messages go. */
export interface DemoServices {
  ingest: IngestService;
  deviceDirectory: DeviceDirectory;
  alarms: AlarmEvaluator;
}

/**
 * Binds the demo monitors to the demo company (once), with its departments, people and alarm
 * settings, and fills their history through the real ingest path, where the alarm engine judges
 * it: seven days of five-minute readings on the first start, and the gap since the last reading
 * on later starts, as a logger back-fills after an outage. Returns the story's anchor (when the
 * fleet was first bound; demo-story.ts), which the live feed continues from.
 */
export async function seedDemoFleet(db: Db, companyId: number, services: DemoServices): Promise<number> {
  await addInventory(db, DEMO_UNITS.map(demoUnitInventory));
  const placements = await seedDemoOrganisation(db, companyId);
  const people = await seedDemoPeople(db, companyId);
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.account, DEMO_ACCOUNT));
  const serials = DEMO_UNITS.map((u) => u.serial);
  const bound = new Set(
    (await db.select({ serial: devices.serial }).from(devices).where(inArray(devices.serial, serials))).map(
      (d) => d.serial,
    ),
  );
  const newMonitors: NewDemoMonitor[] = [];
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
      const colleagues = people.get(place.department) ?? [];
      newMonitors.push({
        unit,
        deviceId: added.id,
        notifierIds: [...(admin ? [admin.id] : []), ...colleagues],
      });
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
  if (newMonitors.length > 0) await seedDemoAlarmSettings(db, companyId, newMonitors);
  await placeDemoDevices(db, companyId);

  const [first] = await db
    .select({ at: min(devices.createdAt) })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), inArray(devices.serial, serials)));
  const anchor = first?.at ? new Date(first.at).getTime() : Date.now();
  await fillHistory(db, services, anchor);

  if (newMonitors.length > 0) {
    await services.alarms.idle();
    const pharmacyLead = people.get('Pharmacy')?.[0];
    const powerCut = newMonitors.find((m) => m.unit.incident === 'powerCut');
    if (pharmacyLead && powerCut)
      await resolvePowerCutAlarms(db, companyId, Number(powerCut.deviceId), pharmacyLead);
    // The unplugged monitor has been silent for hours: the offline sweep (which the server runs
    // every 30 s) is run now, on the first start only, so the demo is consistent from its first
    // answer. Later starts leave it to the server's sweep, after devices had time to reconnect.
    await services.alarms.onOffline(await sweepOfflineDevices(db));
  }
  // The fridges, freezer and cold room the monitors stand in (runs once per company).
  await seedDemoEquipment(db, companyId);
  return anchor;
}

/**
 * Each monitor's readings since its last one (at most a week), as its logger would back-fill
 * them: in time order, a few hundred records a message. The monitors are fed side by side, so
 * ingest writes several of them in one transaction, as it does for a fleet.
 */
async function fillHistory(db: Db, { ingest, deviceDirectory }: DemoServices, anchor: number) {
  const now = Date.now();
  await Promise.all(
    DEMO_UNITS.map(async (unit, index) => {
      const device = await deviceDirectory.find(unit.serial);
      if (!device) return;
      const [latest] = await db
        .select({ updateTime: sensors.updateTime })
        .from(sensors)
        .where(and(eq(sensors.deviceId, device.id), eq(sensors.channel, 1)));
      const from = Math.max(
        latest?.updateTime ? latest.updateTime.getTime() + 1 : 0,
        now - HISTORY_DAYS * 86_400_000,
      );
      const end = Math.min(now, silentFrom(unit, anchor));
      const records = demoRecords(unit, index, anchor, from, end, HISTORY_STEP_MS);
      for (let i = 0; i < records.length; i += RECORDS_PER_MESSAGE)
        await ingest.ingest(device, records.slice(i, i + RECORDS_PER_MESSAGE));
      for (const event of demoEvents(unit, anchor, from, end)) await ingest.recordEvent(device, event);
      // Ingest stamps last contact as now; a monitor that went silent was last heard at its last record.
      if (Number.isFinite(end) && end < now && records.length > 0)
        await db
          .update(devices)
          .set({ lastSeenAt: new Date(records.at(-1)!.ts) })
          .where(eq(devices.id, device.id));
    }),
  );
}

/** Feeds every reporting demo monitor one reading per interval, through the real ingest path. */
export function startDemoFeed(
  { ingest, deviceDirectory }: Pick<DemoServices, 'ingest' | 'deviceDirectory'>,
  anchor: number,
  everyMs = DEMO_FEED_INTERVAL_MS,
) {
  const timer = setInterval(async () => {
    const now = Date.now();
    for (const [index, unit] of DEMO_UNITS.entries()) {
      if (now >= silentFrom(unit, anchor)) continue;
      const device = await deviceDirectory.find(unit.serial);
      if (device)
        await ingest.ingest(device, [demoRecordAt(unit, index, anchor, now)]).catch(() => undefined);
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
