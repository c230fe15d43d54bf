/**
 * `historyData` latency for one sensor over a year of five-minute readings (105 120 points), and
 * the bytes stored per reading (table, indexes and rollup), measured in-process.
 */
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { type Database, queryRows } from '../apps/server/src/db/client';
import { createCompanyWithAdmin } from '../apps/server/src/modules/companies/companies.service';
import { addDevice } from '../apps/server/src/modules/devices/devices.service';
import { devices } from '../apps/server/src/modules/devices/devices.table';
import { addInventory } from '../apps/server/src/modules/inventory/inventory.service';
import { getHistoryData } from '../apps/server/src/modules/telemetry/history.service';
import { packOldReadings } from '../apps/server/src/modules/telemetry/packing';
import { ensureReadingPartitions } from '../apps/server/src/modules/telemetry/partitions';
import { users } from '../apps/server/src/modules/users/users.table';
import { testConfig } from '../apps/server/src/test/build-app';

export interface HistoryFigures {
  label: string;
  points: number;
  p50Ms: number;
  p95Ms: number;
  fullYearP95Ms: number;
  bytesPerReading: number;
  bytesPerReadingWithoutRollup: number;
}

function percentile(samples: number[], p: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchHistory(label: string, database: Database): Promise<HistoryFigures> {
  const db = database.db;
  const app = await buildApp({ config: testConfig(), database, logger: false as never });
  const year = 365 * 288;
  const end = Date.UTC(2026, 10, 1);
  const start = end - year * 300_000;
  await ensureReadingPartitions(db, new Date(end), 13, 1);
  const [user] = await db
    .insert(users)
    .values({ account: `bench-${Date.now()}@example.com`, name: 'Bench', passwordHash: 'x' })
    .returning();
  const companyId = await createCompanyWithAdmin(db, user!.id, { name: 'Bench' });
  const serial = `BENCH${Date.now()}`;
  await addInventory(db, [
    {
      serial,
      model: 'B',
      version: 'basic',
      channels: [{ ch: 1, type: 'temperature', unit: '°C', min: -40, max: 85 }],
    },
  ]);
  await addDevice(db, { companyId, userId: null, ip: '' }, { serial, name: 'Bench' });
  const device = (await app.deviceDirectory.find(serial))!;
  const sensorId = [...device.sensorIds.values()][0]!;
  for (let i = 0; i < year; i += 5000) {
    const records = Array.from({ length: Math.min(5000, year - i) }, (_, j) => {
      const ts = start + (i + j) * 300_000;
      return {
        ts,
        channels: [{ ch: 1, v: Math.round((5 + 2 * Math.sin(ts / 3.6e6)) * 10) / 10 }],
        mode: 'normal' as const,
      };
    });
    await app.ingest.ingest(device, records);
  }
  // What the server's daily storage maintenance does: readings older than two days are packed.
  await packOldReadings(db);
  const query = { sensorId: String(sensorId), startTime: start, endTime: end, maxPoints: 1000 };
  // The company administrator's scope: every device of the company.
  const companyScope = eq(devices.companyId, companyId);
  const samples: number[] = [];
  let points = 0;
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const result = await getHistoryData(db, companyScope, query);
    samples.push(performance.now() - t0);
    points = result.points.length;
  }
  const full: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await getHistoryData(db, companyScope, { ...query, maxPoints: undefined });
    full.push(performance.now() - t0);
  }
  // Every byte the readings occupy: partitions, packed days (with their TOAST), both rollups, indexes.
  const [size] = await queryRows<{ readings: number; rollup: number; n: number }>(
    db,
    sql`select (select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_inherits i join pg_class c on c.oid = i.inhrelid
                where i.inhparent = 'readings'::regclass)::float8
               + pg_total_relation_size('readings_packed')::float8 as readings,
               (pg_total_relation_size('readings_minute') + pg_total_relation_size('readings_hourly') + pg_total_relation_size('readings_daily'))::float8 as rollup,
               ((select count(*) from readings) + (select coalesce(sum(cardinality(ts)), 0) from readings_packed))::float8 as n`,
  );
  await app.close();
  return {
    label,
    points,
    p50Ms: Math.round(percentile(samples, 50) * 10) / 10,
    p95Ms: Math.round(percentile(samples, 95) * 10) / 10,
    fullYearP95Ms: Math.round(percentile(full, 95)),
    bytesPerReading: Math.round((size!.readings + size!.rollup) / size!.n),
    bytesPerReadingWithoutRollup: Math.round(size!.readings / size!.n),
  };
}
