import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudit } from '../audit/audit.service';
import { addDevice } from '../devices/devices.service';
import { devices } from '../devices/devices.table';
import { addInventory } from '../inventory/inventory.service';
import { logisticsAddresses } from '../logistics/addresses.table';
import { logisticsDeliveries, logisticsDeliveryDevices } from '../logistics/deliveries.table';
import { startShipmentAlarms } from '../logistics/delivery-alarms';
import { users } from '../users/users.table';
import { DEMO_FEED_INTERVAL_MS, type DemoServices } from './demo-fleet';
import { DEMO_ACCOUNT } from './demo-seed';

/**
 * The demo's logistics story (issue 18 item 5): a warehouse, a clinic of the demo company itself
 * (linked by the company's own code, so its receiving orders show what it ships to itself) and a
 * pharmacy outside the platform; one shipment delivered within range and received, one in transit
 * with a truck logger that moves along its road and rode out one excursion. Both loggers report
 * GPS positions, so each order's map draws the recorded track (device_positions). The truck's
 * readings go through the real ingest path, so the alarm engine judges them with the shipment's
 * own alarm setting, and the live feed keeps it moving as the demo fleet's feed keeps the fridges
 * reporting.
 */

const WAREHOUSE = { lng: 113.93, lat: 22.53 };
const CLINIC = { lng: 114.12, lat: 22.6 };
/** The trip takes this long; the truck loops it so it keeps moving in a demo that runs for days. */
const TRIP_MS = 6 * 3_600_000;
const STEP_MS = 5 * 60_000;
const TRUCK = 'TRK0001';
const BOX = 'BOX0001';
const HOUR = 3_600_000;

const channels = [{ ch: 1, type: 'temperature', unit: '°C', min: -40, max: 85 }];

/** The road warehouse -> clinic: it bends, so the recorded track is not the straight line. */
const ROAD = [
  WAREHOUSE,
  { lng: 113.97, lat: 22.515 },
  { lng: 114.02, lat: 22.545 },
  { lng: 114.06, lat: 22.545 },
  { lng: 114.1, lat: 22.575 },
  CLINIC,
];
const legLengths = ROAD.slice(1).map((b, i) => Math.hypot(b.lng - ROAD[i]!.lng, b.lat - ROAD[i]!.lat));
const roadLength = legLengths.reduce((a, b) => a + b, 0);

/** The point `f` (0..1) of the way along the road, by distance. */
export function roadPosition(f: number) {
  let left = Math.min(Math.max(f, 0), 1) * roadLength;
  for (const [i, leg] of legLengths.entries()) {
    if (left <= leg || i === legLengths.length - 1) {
      const [a, b] = [ROAD[i]!, ROAD[i + 1]!];
      const g = leg === 0 ? 0 : Math.min(left / leg, 1);
      const round = (v: number) => Math.round(v * 1e6) / 1e6;
      return { lng: round(a.lng + (b.lng - a.lng) * g), lat: round(a.lat + (b.lat - a.lat) * g) };
    }
    left -= leg;
  }
  return { ...CLINIC };
}

/**
 * Where the truck is `elapsed` into its trip: along the road to the clinic in TRIP_MS, then back,
 * and again, so it keeps moving in a demo that runs for days without jumping across the map.
 */
export function truckPosition(elapsed: number) {
  const phase = (((elapsed % (2 * TRIP_MS)) + 2 * TRIP_MS) % (2 * TRIP_MS)) / TRIP_MS;
  return roadPosition(phase <= 1 ? phase : 2 - phase);
}

/** The truck's temperature: 5 °C with a gentle wave, and one excursion 40-60 minutes after departure. */
export function truckTemperature(elapsed: number) {
  if (elapsed >= 40 * 60_000 && elapsed < 60 * 60_000) return 9.6;
  return Math.round((5 + Math.sin(elapsed / 1_800_000)) * 10) / 10;
}

async function bindLogger(db: Db, companyId: number, serial: string, name: string) {
  const [bound] = await db.select({ id: devices.id }).from(devices).where(eq(devices.serial, serial));
  if (bound) return bound.id;
  await addInventory(db, [{ serial, model: 'CC-T1', version: 'basic', channels }]);
  const added = await addDevice(db, { companyId, userId: null, ip: '' }, { serial, name });
  return Number(added.id);
}

/** Seeds the story once, then feeds the truck every minute; returns what stops the feed. */
export async function seedDemoLogistics(db: Db, companyId: number, services: DemoServices) {
  const truckId = await bindLogger(db, companyId, TRUCK, 'Truck logger');
  const boxId = await bindLogger(db, companyId, BOX, 'Cool box logger');
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.account, DEMO_ACCOUNT));
  const actor = { companyId, userId: admin?.id ?? null, ip: '' };
  let [inTransit] = await db
    .select()
    .from(logisticsDeliveries)
    .where(
      and(eq(logisticsDeliveries.companyId, companyId), eq(logisticsDeliveries.orderNo, 'DO-DEMO-0002')),
    );
  if (!inTransit) {
    const now = Date.now();
    const place = (
      name: string,
      contact: string,
      address: string,
      at: { lng: number; lat: number },
      receiver: number | null,
    ) => ({
      companyId,
      name,
      contact,
      phone: '13800138000',
      region: 'Guangdong/Shenzhen',
      address,
      lng: at.lng,
      lat: at.lat,
      receiverCompanyId: receiver,
    });
    const [warehouse, clinic] = await db
      .insert(logisticsAddresses)
      .values([
        place('Demo warehouse', 'Ravi Kumar', '8 Cold Store Road', WAREHOUSE, null),
        place('City clinic', 'Aisha Rahman', '1 Health Street', CLINIC, companyId),
        place('Harbour pharmacy', 'Chen Jie', '3 Harbour Road', { lng: 114.2, lat: 22.55 }, null),
      ])
      .returning();
    const copy = (a: typeof warehouse) => ({
      name: a!.name,
      contact: a!.contact,
      phone: a!.phone,
      region: a!.region,
      address: a!.address,
      lng: a!.lng,
      lat: a!.lat,
    });
    const common = {
      companyId,
      senderAddressId: warehouse!.id,
      receiverAddressId: clinic!.id,
      sender: copy(warehouse),
      receiver: copy(clinic),
      receiverCompanyId: companyId,
      tempMin: 2,
      tempMax: 8,
      carrier: 'Demo Cold Trucks',
      createdBy: actor.userId,
    };
    // Delivered two days ago within range, received by the administrator.
    const departed = now - 2 * 24 * HOUR;
    const arrived = departed + 4 * HOUR;
    const [delivered] = await db
      .insert(logisticsDeliveries)
      .values({
        ...common,
        orderNo: 'DO-DEMO-0001',
        state: 4,
        goods: [{ name: 'Influenza vaccine', quantity: '120 vials', batch: 'FLU-2611' }],
        vehicle: 'B-52011',
        departedAt: new Date(departed),
        arrivedAt: new Date(arrived),
        receivedAt: new Date(arrived + 10 * 60_000),
        receivedBy: actor.userId,
        receiptRemarks: 'Cool boxes sealed, temperature record reviewed',
        receiptSignature: {
          method: 'password',
          meaning: 'shipmentReceipt',
          signedBy: 'Demo Admin',
          signedAt: arrived + 10 * 60_000,
        },
      })
      .returning();
    await db
      .insert(logisticsDeliveryDevices)
      .values({ deliveryId: delivered!.id, deviceId: boxId, companyId, active: false });
    const box = await services.deviceDirectory.find(BOX);
    if (box) {
      const records = [];
      for (let ts = departed; ts <= arrived; ts += STEP_MS)
        records.push({
          ts,
          channels: [{ ch: 1, v: Math.round((4.5 + Math.sin(ts / 2_700_000)) * 10) / 10 }],
          mode: 'normal' as const,
          // The cool box rode the same road: the received order's map shows its track.
          ...roadPosition((ts - departed) / (arrived - departed)),
        });
      await services.ingest.ingest(box, records);
    }
    // In transit for three hours, with its shipment alarm setting on the truck's probe.
    const departedAt = now - 3 * HOUR;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(logisticsDeliveries)
        .values({
          ...common,
          orderNo: 'DO-DEMO-0002',
          state: 2,
          goods: [{ name: 'Insulin pens', quantity: '40 boxes', batch: 'INS-0412' }],
          vehicle: 'B-77820',
          departedAt: new Date(departedAt),
          plannedArrival: new Date(departedAt + TRIP_MS),
        })
        .returning();
      await tx.insert(logisticsDeliveryDevices).values({ deliveryId: row!.id, deviceId: truckId, companyId });
      await startShipmentAlarms(tx, actor, row!);
      await recordAudit(tx, actor, {
        action: 'logisticsDelivery.depart',
        targetType: 'logisticsDelivery',
        targetId: String(row!.id),
        after: { orderNo: row!.orderNo, state: 2, departTime: departedAt },
      });
      inTransit = row;
    });
    const truck = await services.deviceDirectory.find(TRUCK);
    if (truck) {
      const records = [];
      for (let ts = departedAt; ts <= now; ts += STEP_MS)
        records.push({
          ts,
          channels: [{ ch: 1, v: truckTemperature(ts - departedAt) }],
          mode: 'normal' as const,
          ...truckPosition(ts - departedAt),
        });
      await services.ingest.ingest(truck, records);
    }
  }
  const start = inTransit!.departedAt!.getTime();
  const timer = setInterval(async () => {
    const truck = await services.deviceDirectory.find(TRUCK);
    const now = Date.now();
    if (truck)
      await services.ingest
        .ingest(truck, [
          {
            ts: now,
            channels: [{ ch: 1, v: truckTemperature(now - start) }],
            mode: 'normal',
            ...truckPosition(now - start),
          },
        ])
        .catch(() => undefined);
  }, DEMO_FEED_INTERVAL_MS);
  timer.unref();
  return async () => clearInterval(timer);
}
