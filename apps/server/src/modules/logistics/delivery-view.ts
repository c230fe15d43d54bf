import { type DeliveryDetail, type DeliveryMonitorView, DeliveryState } from '@coldchain/contract';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { companies } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { thinSeries } from '../reports/pdf-chart';
import { storedReadings } from '../telemetry/reading-sources';
import { type DeliveryRow, presentListItem } from './deliveries.service';
import { logisticsDeliveryDevices, logisticsDeliveries as t } from './deliveries.table';
import { type SensorTrip, shipmentSummary } from './delivery-figures';
import { loadRoutes } from './delivery-route';

/** Who looks at an order: a company (as its sender or its receiver on the platform), or a receipt link. */
export type Viewer = { companyId: number } | { linkDeliveryId: number };

/** Points a chart of one sensor gets in the detail answer; the summary reads every reading. */
const CHART_POINTS = 1500;

/**
 * The order a viewer may read: the sender's own, one addressed to the company once it left, or
 * the link's. Anything else reads as "does not exist".
 */
export async function visibleDelivery(
  db: Queryable,
  viewer: Viewer,
  wireId?: string,
): Promise<DeliveryRow & { role: DeliveryDetail['role'] }> {
  if ('linkDeliveryId' in viewer) {
    const [row] = await db.select().from(t).where(eq(t.id, viewer.linkDeliveryId));
    if (!row) throw new AppError('LOGISTICS_DELIVERY_NOT_FOUND');
    return { ...row, role: 'link' };
  }
  const id = idFromWire(wireId) ?? 0;
  const [row] = await db
    .select()
    .from(t)
    .where(
      and(
        eq(t.id, id),
        or(
          eq(t.companyId, viewer.companyId),
          and(eq(t.receiverCompanyId, viewer.companyId), sql`${t.departedAt} is not null`),
        ),
      ),
    );
  if (!row) throw new AppError('LOGISTICS_DELIVERY_NOT_FOUND');
  return { ...row, role: row.companyId === viewer.companyId ? 'sender' : 'receiver' };
}

/** The trip's window: departure to arrival (or now while travelling); null before departure. */
export function windowOf(row: DeliveryRow, now = Date.now()): { start: number; end: number } | null {
  if (!row.departedAt) return null;
  return { start: row.departedAt.getTime(), end: row.arrivedAt?.getTime() ?? now };
}

export interface TripData {
  monitors: Array<Omit<DeliveryMonitorView, 'sensors'> & { intervalMs: number }>;
  sensors: Array<{
    id: number;
    deviceId: number;
    serial: string;
    channel: number;
    name: string;
    type: string;
    unit: string;
    points: Array<[number, number]>;
  }>;
}

/** The order's monitors and every reading of their sensors within the window, nothing outside it. */
export async function loadTrip(db: Queryable, row: DeliveryRow, now = Date.now()): Promise<TripData> {
  const monitorRows = await db
    .select({
      id: devices.id,
      serial: devices.serial,
      name: devices.name,
      lng: devices.lng,
      lat: devices.lat,
      lastSeenAt: devices.lastSeenAt,
      recordIntervalS: devices.recordIntervalS,
    })
    .from(logisticsDeliveryDevices)
    .innerJoin(devices, eq(devices.id, logisticsDeliveryDevices.deviceId))
    .where(eq(logisticsDeliveryDevices.deliveryId, row.id))
    .orderBy(asc(devices.serial));
  // A position says where the goods are only while they travel; after arrival the logger's
  // whereabouts are the sender's business, not the receiver's.
  const travelling = row.state === DeliveryState.InTransit;
  const monitors = monitorRows.map((m) => ({
    deviceId: idToWire(m.id),
    serial: m.serial,
    name: m.name,
    lng: travelling ? m.lng : null,
    lat: travelling ? m.lat : null,
    lastSeen: travelling ? (m.lastSeenAt?.getTime() ?? null) : null,
    intervalMs: m.recordIntervalS * 1000,
  }));
  const sensorRows =
    monitorRows.length === 0
      ? []
      : await db
          .select()
          .from(sensors)
          .where(
            inArray(
              sensors.deviceId,
              monitorRows.map((m) => m.id),
            ),
          )
          .orderBy(asc(sensors.deviceId), asc(sensors.channel));
  const window = windowOf(row, now);
  const points = new Map<number, Array<[number, number]>>();
  if (window && sensorRows.length > 0) {
    const rows = await queryRows<{ sensor_id: string | number; ts: string | number; value: string | number }>(
      db,
      sql`select r.sensor_id, (extract(epoch from r.ts) * 1000)::float8 as ts, r.value::float8 as value
          from (${storedReadings(
            sensorRows.map((s) => s.id),
            window.start,
            window.end,
          )}) r order by r.sensor_id, r.ts`,
    );
    for (const r of rows) {
      const list = points.get(Number(r.sensor_id)) ?? [];
      list.push([Number(r.ts), Math.round(Number(r.value) * 100) / 100]);
      points.set(Number(r.sensor_id), list);
    }
  }
  const serialOf = new Map(monitorRows.map((m) => [m.id, m.serial]));
  return {
    monitors,
    sensors: sensorRows.map((s) => ({
      id: s.id,
      deviceId: s.deviceId,
      serial: serialOf.get(s.deviceId) ?? '',
      channel: s.channel,
      name: s.name,
      type: s.type,
      unit: s.unit,
      points: points.get(s.id) ?? [],
    })),
  };
}

/** The temperature sensors' trips, as the summary reads them. */
export function temperatureTrips(trip: TripData): SensorTrip[] {
  const interval = new Map(trip.monitors.map((m) => [m.serial, m.intervalMs]));
  return trip.sensors
    .filter((s) => s.type === 'temperature')
    .map((s) => ({
      serial: s.serial,
      channel: s.channel,
      points: s.points,
      intervalMs: interval.get(s.serial) ?? 300_000,
    }));
}

/**
 * `/api/logistics/deliveryDetail` (and the link's receipt page): the order, its readings and each
 * monitor's route in the window, the summary.
 */
export async function deliveryDetail(
  db: Queryable,
  viewer: Viewer,
  wireId?: string,
  now = Date.now(),
): Promise<DeliveryDetail> {
  const row = await visibleDelivery(db, viewer, wireId);
  const trip = await loadTrip(db, row, now);
  const window = windowOf(row, now);
  const routes = await loadRoutes(
    db,
    trip.monitors.map((m) => Number(m.deviceId)),
    window,
  );
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, row.companyId));
  const [receiverCompany] = row.receiverCompanyId
    ? await db.select({ name: companies.name }).from(companies).where(eq(companies.id, row.receiverCompanyId))
    : [];
  const summary = shipmentSummary(
    temperatureTrips(trip),
    row.tempMin,
    row.tempMax,
    window?.start ?? now,
    window?.end ?? now,
  );
  const signature = row.receiptSignature;
  return {
    ...presentListItem(
      row,
      company?.name ?? '',
      trip.monitors.map((m) => m.serial),
    ),
    humidityMin: row.humidityMin,
    humidityMax: row.humidityMax,
    remarks: row.remarks,
    receiverCompany: receiverCompany?.name ?? null,
    monitors: trip.monitors.map(({ intervalMs: _interval, ...m }) => ({
      ...m,
      sensors: trip.sensors
        .filter((s) => s.serial === m.serial)
        .map((s) => ({
          channel: s.channel,
          name: s.name,
          type: s.type,
          unit: s.unit,
          points: thinSeries(s.points, CHART_POINTS),
        })),
      route: routes.get(Number(m.deviceId)) ?? [],
    })),
    summary,
    receipt:
      row.receivedAt && signature
        ? {
            accepted: row.state === DeliveryState.Received,
            time: row.receivedAt.getTime(),
            remarks: row.receiptRemarks,
            photo: row.receiptPhoto,
            signedBy: signature.signedBy,
            method: signature.method,
          }
        : null,
    role: row.role,
  };
}
