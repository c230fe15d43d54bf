/**
 * Seeding shared by the benchmarks: a company, monitors with one temperature channel each, and
 * five-minute readings ingested through the real ingest path, packed as the daily maintenance does.
 */
import { buildApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db/client';
import { createCompanyWithAdmin } from '../apps/server/src/modules/companies/companies.service';
import { addDevice } from '../apps/server/src/modules/devices/devices.service';
import { addInventory } from '../apps/server/src/modules/inventory/inventory.service';
import { packOldReadings } from '../apps/server/src/modules/telemetry/packing';
import { ensureReadingPartitions } from '../apps/server/src/modules/telemetry/partitions';
import { users } from '../apps/server/src/modules/users/users.table';
import { testConfig } from '../apps/server/src/test/build-app';

export const FIVE_MINUTES = 300_000;

export interface SeededFleet {
  app: Awaited<ReturnType<typeof buildApp>>;
  companyId: number;
  userId: number;
  /** One per monitor, in the order the monitors were added. */
  deviceIds: number[];
  sensorIds: number[];
  start: number;
  end: number;
}

/**
 * `monitors` monitors, each with `readings` readings `stepMs` apart (five minutes unless said)
 * ending on 2026-11-01 (a gentle daily sine around 5 °C), on `database`.
 */
export async function seedFleet(
  database: Database,
  monitors: number,
  readings: number,
  stepMs = FIVE_MINUTES,
): Promise<SeededFleet> {
  const db = database.db;
  const app = await buildApp({ config: testConfig(), database, logger: false as never });
  const end = Date.UTC(2026, 10, 1);
  const start = end - readings * stepMs;
  await ensureReadingPartitions(db, new Date(end), Math.ceil((readings * stepMs) / (30 * 86_400_000)) + 1, 1);
  const stamp = Date.now();
  const [user] = await db
    .insert(users)
    .values({ account: `bench-${stamp}@example.com`, name: 'Bench', passwordHash: 'x' })
    .returning();
  const companyId = await createCompanyWithAdmin(db, user!.id, { name: 'Bench' });
  const serials = Array.from({ length: monitors }, (_, i) => `BENCH${stamp}${String(i).padStart(4, '0')}`);
  await addInventory(
    db,
    serials.map((serial) => ({
      serial,
      model: 'B',
      version: 'basic' as const,
      channels: [{ ch: 1, type: 'temperature', unit: '°C', min: -40, max: 85 }],
    })),
  );
  const deviceIds: number[] = [];
  const sensorIds: number[] = [];
  for (const [n, serial] of serials.entries()) {
    await addDevice(db, { companyId, userId: null, ip: '' }, { serial, name: `Bench ${n + 1}` });
    const device = (await app.deviceDirectory.find(serial))!;
    deviceIds.push(device.id);
    sensorIds.push([...device.sensorIds.values()][0]!);
    for (let i = 0; i < readings; i += 5000) {
      const records = Array.from({ length: Math.min(5000, readings - i) }, (_, j) => {
        const ts = start + (i + j) * stepMs;
        return {
          ts,
          channels: [{ ch: 1, v: Math.round((5 + 2 * Math.sin(ts / 3.6e6 + n)) * 10) / 10 }],
          mode: 'normal' as const,
        };
      });
      await app.ingest.ingest(device, records);
    }
  }
  // What the server's daily storage maintenance does: readings older than two days are packed.
  await packOldReadings(db);
  return { app, companyId, userId: user!.id, deviceIds, sensorIds, start, end };
}
