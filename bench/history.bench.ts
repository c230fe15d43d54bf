/**
 * `historyData` latency for one sensor over a year of five-minute readings (105 120 points), and
 * the bytes stored per reading (table, indexes and rollup), measured in-process.
 */
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../apps/server/src/db/client';
import { devices } from '../apps/server/src/modules/devices/devices.table';
import { getHistoryData } from '../apps/server/src/modules/telemetry/history.service';
import { seedFleet } from './seed';

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
  const year = 365 * 288;
  const { app, companyId, sensorIds, start, end } = await seedFleet(database, 1, year);
  const sensorId = sensorIds[0]!;
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
