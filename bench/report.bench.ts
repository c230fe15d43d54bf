/**
 * The time and peak memory to build the sensor report PDF of one sensor over a year of
 * five-minute readings (105 120 points; issue 15 goal: under 5 s and 300 MB), in-process on the
 * embedded database: reading the data, the figures, the chart, the table and the stored file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { openDatabase } from '../apps/server/src/db/client';
import { createCompanyWithAdmin } from '../apps/server/src/modules/companies/companies.service';
import { addDevice } from '../apps/server/src/modules/devices/devices.service';
import { devices } from '../apps/server/src/modules/devices/devices.table';
import { addInventory } from '../apps/server/src/modules/inventory/inventory.service';
import { generateSensorReport } from '../apps/server/src/modules/reports/sensor-report';
import { packOldReadings } from '../apps/server/src/modules/telemetry/packing';
import { ensureReadingPartitions } from '../apps/server/src/modules/telemetry/partitions';
import { users } from '../apps/server/src/modules/users/users.table';
import { testConfig } from '../apps/server/src/test/build-app';

export interface ReportFigures {
  label: string;
  seconds: number;
  /** Highest resident memory of the whole process while the report was built (sampled every 10 ms). */
  peakRssMb: number;
  /** How much that peak stood above the resident memory just before the build. */
  addedRssMb: number;
  pages: number;
  sizeKb: number;
}

async function seededYear() {
  const database = await openDatabase({});
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
  await packOldReadings(db);
  return { app, database, companyId, userId: user!.id, sensorId, start, end };
}

export async function benchReport(intervals: Array<number | undefined>): Promise<ReportFigures[]> {
  const seeded = await seededYear();
  const uploadDir = await mkdtemp(path.join(tmpdir(), 'report-bench-'));
  const figures: ReportFigures[] = [];
  try {
    for (const interval of intervals) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 10);
      const t0 = performance.now();
      const report = await generateSensorReport(
        seeded.app.db,
        { uploadDir, activationEnergyKj: 83.144 },
        { userId: seeded.userId, companyId: seeded.companyId, ip: '' },
        { companyId: seeded.companyId, userId: seeded.userId, ip: '' },
        eq(devices.companyId, seeded.companyId),
        {
          sensorId: String(seeded.sensorId),
          startTime: seeded.start,
          endTime: seeded.end,
          interval,
          timeZone: 'UTC',
        },
        'en',
      );
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const pages = (report.bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
      figures.push({
        label: interval ? `table every ${interval} min` : 'table at the default step',
        seconds: Math.round(seconds * 100) / 100,
        peakRssMb: Math.round(peak / 1_048_576),
        addedRssMb: Math.round((peak - before) / 1_048_576),
        pages,
        sizeKb: Math.round(report.bytes.length / 1024),
      });
    }
  } finally {
    await seeded.app.close();
    await seeded.database.close();
    await rm(uploadDir, { recursive: true, force: true });
  }
  return figures;
}

/** `npm run bench -- report`: prints the figures beside the goal. */
export async function reportFigures(): Promise<void> {
  console.log(
    '\n## Sensor report PDF of one sensor over a year of 5-minute readings, embedded (goal: under 5 s and 300 MB)',
  );
  for (const f of await benchReport([undefined, 15])) {
    console.log(
      `- ${f.label}: ${f.seconds} s, peak RSS ${f.peakRssMb} MB (+${f.addedRssMb} MB over the process before), ${f.pages} pages, ${f.sizeKb} KB`,
    );
  }
}
