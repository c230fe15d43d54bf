import { PUSH_MAX_ITEMS, type PushDeliveryBody, type PushReadingItem } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { idToWire } from '../../lib/ids';
import { pushDeliveries } from './push-docking.table';
import { nextDeliveryIds } from './push-test';

/** Outbox rows routed per transaction at most. */
const ROUTE_LIMIT = 500;
/** Items planned per transaction at most (a row's items times the addresses bound to its device). */
const ROUTE_MAX_ITEMS = 5_000;
/** One instance routes at a time, so deliveries are numbered in the outbox's order. */
const ROUTE_LOCK = 7_231_016;

interface OutboxRow {
  id: number | string;
  company_id: number | string;
  device_id: number | string;
  event: string;
  payload: unknown;
}

/** What the readings trigger writes: parallel arrays of sensor ids, epoch seconds and values. */
interface ReadingPayload {
  s: (number | string)[];
  t: (number | string)[];
  v: number[];
}

interface Reading {
  sensorId: number;
  ts: number;
  value: number;
}

/** A row's readings in time order (the trigger does not sort, to stay cheap on the ingest path). */
function readingsOf(payload: ReadingPayload): Reading[] {
  return payload.s
    .map((sensorId, i) => ({
      sensorId: Number(sensorId),
      ts: Math.round(Number(payload.t[i]) * 1000),
      value: Number(payload.v[i]),
    }))
    .sort((a, b) => a.ts - b.ts || a.sensorId - b.sensorId);
}

interface Planned {
  urlId: number;
  companyId: number;
  event: string;
  items: unknown[];
}

/** The live channel's alarm message fields (alarm-writer.ts liveAlarmMessage) plus `resolveState`. */
async function alarmItems(tx: Tx, alarmIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  if (alarmIds.length === 0) return new Map();
  const rows = await queryRows<{ id: number | string; item: Record<string, unknown> }>(
    tx,
    sql`select a.id, json_build_object(
          'alarmTime', round(extract(epoch from a.alarm_time) * 1000), 'alarmType', a.alarm_type,
          'groupName', '', 'deviceName', d.name, 'deviceSerial', d.serial, 'deviceId', d.id::text,
          'channelName', coalesce(s.name, ''), 'objectName', d.name, 'alarmContent', a.content,
          'alarmId', a.id::text, 'level', a.level, 'count', a.count) as item
        from alarm_records a join devices d on d.id = a.device_id left join sensors s on s.id = a.sensor_id
        where a.id = any(${pgArray(alarmIds)}::bigint[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.item]));
}

/**
 * Turns outbox rows into deliveries of the enabled addresses bound to their devices, and deletes
 * them, in one transaction: a crash leaves either the rows or the deliveries, never neither or
 * both. Readings of an address are gathered into one delivery of at most PUSH_MAX_ITEMS items;
 * any other event closes the gathering first, so an address receives everything in outbox order.
 * Returns how many rows it routed (0 when another instance holds the routing lock).
 */
export async function routePushOutbox(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${ROUTE_LOCK}) as locked`,
    );
    if (!lock?.locked) return 0;
    const rows = await queryRows<OutboxRow>(
      tx,
      // A readings row's arrays (migration 0042) become the JSON the rest of this reads, here and
      // not in the ingest statement's trigger; `with ordinality` keeps the times in their order.
      // A row holds a whole ingest statement, up to thousands of readings, and this transaction
      // routes only about ROUTE_MAX_ITEMS: rows are read while the readings before them number
      // fewer than that (the first always), not ROUTE_LIMIT rows' worth of readings turned into
      // JSON to use one.
      sql`select id, company_id, device_id, event,
            coalesce(payload, jsonb_build_object(
              's', to_jsonb(reading_sensors),
              't', (select jsonb_agg(date_part('epoch', u.ts) order by u.i)
                    from unnest(reading_ts) with ordinality as u(ts, i)),
              'v', to_jsonb(reading_values))) as payload
          from (
            select o.*, sum(coalesce(cardinality(o.reading_sensors), 1)) over (order by o.id)
                          - coalesce(cardinality(o.reading_sensors), 1) as readings_before
            from (select * from push_outbox order by id limit ${ROUTE_LIMIT}) o
          ) o
          where readings_before < ${ROUTE_MAX_ITEMS}
          order by id`,
    );
    if (rows.length === 0) return 0;
    const sensorIds = new Set<number>();
    const alarmIds: number[] = [];
    for (const row of rows) {
      if (row.event === 'reading')
        for (const sensorId of (row.payload as ReadingPayload).s) sensorIds.add(Number(sensorId));
      else if (row.event === 'alarm' || row.event === 'alarmResolved')
        alarmIds.push(Number((row.payload as { alarmId: number }).alarmId));
    }
    // A readings row holds a whole ingest statement, of any devices: sensors name them.
    const sensors = new Map(
      (
        await queryRows<{
          id: number | string;
          device_id: number | string;
          company_id: number | string;
          channel: number;
        }>(
          tx,
          sql`select id, device_id, company_id, channel from sensors where id = any(${pgArray([...sensorIds])}::bigint[])`,
        )
      ).map((s) => [
        Number(s.id),
        { deviceId: Number(s.device_id), companyId: Number(s.company_id), channel: Number(s.channel) },
      ]),
    );
    const deviceIds = [
      ...new Set([
        ...rows.filter((r) => r.event !== 'reading').map((r) => Number(r.device_id)),
        ...[...sensors.values()].map((s) => s.deviceId),
      ]),
    ];
    const targets = await queryRows<{
      device_id: number | string;
      url_id: number | string;
      events: string[];
    }>(
      tx,
      sql`select b.device_id, u.id as url_id, u.events from push_bindings b join push_urls u on u.id = b.url_id
          where u.state = 2 and b.device_id = any(${pgArray(deviceIds)}::bigint[]) order by u.id`,
    );
    const byDevice = new Map<number, { urlId: number; events: string[] }[]>();
    for (const t of targets) {
      const list = byDevice.get(Number(t.device_id)) ?? [];
      list.push({ urlId: Number(t.url_id), events: t.events });
      byDevice.set(Number(t.device_id), list);
    }
    const devices = new Map(
      (
        await queryRows<{ id: number | string; serial: string; name: string }>(
          tx,
          sql`select id, serial, name from devices where id = any(${pgArray([...byDevice.keys()])}::bigint[])`,
        )
      ).map((d) => [Number(d.id), d]),
    );
    const alarms = await alarmItems(tx, alarmIds);

    const planned: Planned[] = [];
    const gathering = new Map<number, Planned>();
    /** Rows routed in this transaction: those before the item bound was reached. */
    const routed: OutboxRow[] = [];
    let plannedItems = 0;
    const gatherReadings = (deviceId: number, companyId: number, readings: Reading[]) => {
      const device = devices.get(deviceId);
      if (!device) return;
      for (const target of byDevice.get(deviceId) ?? []) {
        if (!target.events.includes('reading')) continue;
        for (const { sensorId, ts, value } of readings) {
          let batch = gathering.get(target.urlId);
          if (!batch || batch.items.length >= PUSH_MAX_ITEMS) {
            batch = { urlId: target.urlId, companyId, event: 'reading', items: [] };
            gathering.set(target.urlId, batch);
            planned.push(batch);
          }
          const item: PushReadingItem = {
            deviceSerial: device.serial,
            sensorId: idToWire(sensorId),
            channel: sensors.get(sensorId)?.channel ?? 0,
            ts,
            value,
          };
          batch.items.push(item);
          plannedItems++;
        }
      }
    };
    for (const row of rows) {
      // One row's readings fan out to every address bound to their devices: the bound keeps a
      // transaction (and this thread's turn) small however many addresses there are.
      if (plannedItems >= ROUTE_MAX_ITEMS) break;
      routed.push(row);
      if (row.event === 'reading') {
        const perDevice = new Map<number, Reading[]>();
        for (const reading of readingsOf(row.payload as ReadingPayload)) {
          const deviceId = sensors.get(reading.sensorId)?.deviceId;
          if (deviceId === undefined || !byDevice.has(deviceId)) continue;
          const list = perDevice.get(deviceId) ?? [];
          list.push(reading);
          perDevice.set(deviceId, list);
        }
        for (const [deviceId, readings] of perDevice)
          gatherReadings(deviceId, sensors.get(readings[0]!.sensorId)!.companyId, readings);
        continue;
      }
      const deviceId = Number(row.device_id);
      const device = devices.get(deviceId);
      if (!device) continue;
      for (const target of byDevice.get(deviceId) ?? []) {
        if (!target.events.includes(row.event)) continue;
        // Any other event closes the address's gathering: it arrives after the readings before it.
        gathering.delete(target.urlId);
        const payload = row.payload as Record<string, unknown>;
        const item =
          row.event === 'deviceState'
            ? {
                deviceId: idToWire(deviceId),
                deviceSerial: device.serial,
                deviceName: device.name,
                state: payload.state,
                previousState: payload.previousState,
                ts: payload.ts,
              }
            : { ...alarms.get(Number(payload.alarmId)), resolveState: payload.resolveState };
        planned.push({
          urlId: target.urlId,
          companyId: Number(row.company_id),
          event: row.event,
          items: [item],
        });
        plannedItems++;
      }
    }
    const ids = await nextDeliveryIds(tx, planned.length);
    const now = Date.now();
    const values = planned.map((p, i) => {
      const body: PushDeliveryBody = {
        deliveryId: idToWire(ids[i]!),
        event: p.event as PushDeliveryBody['event'],
        companyId: idToWire(p.companyId),
        time: now,
        items: p.items,
      };
      return {
        id: ids[i]!,
        urlId: p.urlId,
        event: p.event,
        body: JSON.stringify(body),
        items: p.items.length,
      };
    });
    for (let i = 0; i < values.length; i += 500)
      await tx.insert(pushDeliveries).values(values.slice(i, i + 500));
    await tx.execute(
      sql`delete from push_outbox where id = any(${pgArray(routed.map((r) => Number(r.id)))}::bigint[])`,
    );
    return routed.length;
  });
}
