import type { UpRecord } from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { pgArray } from '../../db/pg-array';

/**
 * The positions of one ingest batch, for `device_positions`: every record that carries both `lat`
 * and `lng`, once per (device, instant). `devices.lat/lng` keep only the newest; this is the track
 * a shipment's map draws (logistics/delivery-route.ts).
 */
export class PositionTrack {
  private readonly points = new Map<string, { deviceId: number; ts: number; lat: number; lng: number }>();

  add(deviceId: number, record: UpRecord): void {
    if (record.lat === undefined || record.lng === undefined) return;
    const key = `${deviceId}:${record.ts}`;
    if (!this.points.has(key))
      this.points.set(key, { deviceId, ts: record.ts, lat: record.lat, lng: record.lng });
  }

  /**
   * One more sub-statement of the batch's one statement (write-batch.ts): a multi-row insert that
   * skips a (device, instant) already stored. Nothing at all when no record carried a position,
   * so loggers without GPS cost ingest nothing; the statement has one of two texts, each planned
   * once. Starts with the comma that follows the previous sub-statement.
   */
  insert(): SQL {
    if (this.points.size === 0) return sql``;
    const rows = [...this.points.values()];
    return sql`, track as (
        insert into device_positions (device_id, ts, lat, lng)
        select p.device_id, to_timestamp(p.ms / 1000.0), p.lat, p.lng
        from unnest(${pgArray(rows.map((r) => r.deviceId))}::bigint[], ${pgArray(rows.map((r) => r.ts))}::float8[],
                    ${pgArray(rows.map((r) => r.lat))}::float8[], ${pgArray(rows.map((r) => r.lng))}::float8[])
             as p(device_id, ms, lat, lng)
        on conflict do nothing
      )`;
  }
}
