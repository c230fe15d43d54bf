import type { DeliveryRoutePoint } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { pgArray } from '../../db/pg-array';

/** Points a monitor's route gets at most in the detail answer: enough for a map, light to send. */
export const ROUTE_POINTS = 500;

/**
 * Each monitor's recorded track within the trip's window (departure to arrival, or now while in
 * transit), in time order, from `device_positions` (written by ingest). Nothing before departure
 * or after arrival: the receiver sees the trip only, as with the readings. A longer track is
 * thinned in SQL to every k-th point with the last one kept, so it never exceeds ROUTE_POINTS
 * (the primary key (device_id, ts) serves the range). One statement for all monitors.
 */
export async function loadRoutes(
  db: Queryable,
  deviceIds: number[],
  window: { start: number; end: number } | null,
): Promise<Map<number, DeliveryRoutePoint[]>> {
  const routes = new Map<number, DeliveryRoutePoint[]>();
  if (!window || deviceIds.length === 0) return routes;
  const rows = await queryRows<{ device_id: string | number; ts: string | number; lat: number; lng: number }>(
    db,
    sql`select device_id, ts, lat, lng from (
          select p.device_id, (extract(epoch from p.ts) * 1000)::float8 as ts, p.lat, p.lng,
                 row_number() over (partition by p.device_id order by p.ts) - 1 as i,
                 count(*) over (partition by p.device_id) as n
          from device_positions p
          where p.device_id = any(${pgArray(deviceIds)}::bigint[])
            and p.ts >= ${new Date(window.start).toISOString()} and p.ts <= ${new Date(window.end).toISOString()}
        ) t
        where t.i = t.n - 1
           or t.i % greatest(1, ceil((t.n - 1)::float8 / ${ROUTE_POINTS - 1}))::bigint = 0
        order by device_id, ts`,
  );
  for (const r of rows) {
    const id = Number(r.device_id);
    const list = routes.get(id) ?? [];
    list.push({ ts: Number(r.ts), lat: Number(r.lat), lng: Number(r.lng) });
    routes.set(id, list);
  }
  return routes;
}
