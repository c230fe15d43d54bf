/**
 * Push docking (issue 16 item 4): the ingest rate with 100 enabled push addresses bound to the
 * sending devices, against the rate without any (goal: within 10 %), and the deliveries per
 * second the worker sends to a local receiver meanwhile. The app runs in this process on the
 * embedded database (PGlite in its own thread, as `npm start` runs it), with the push worker
 * started as run-server.ts starts it; readings go through the ingest service, as MQTT and HTTP
 * messages do after parsing.
 *
 *   npx tsx bench/push.bench.ts   # BENCH_SECONDS (10), BENCH_PUSH_ADDRESSES (100), BENCH_PUSH_ROUNDS (3)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { openDatabase, queryRows } from '../apps/server/src/db/client';
import { loadConfig } from '../apps/server/src/lib/config';
import { SecretBox } from '../apps/server/src/lib/secret-box';
import { seedDemo } from '../apps/server/src/modules/demo/demo-seed';
import { addDevice } from '../apps/server/src/modules/devices/devices.service';
import type { KnownDevice } from '../apps/server/src/modules/ingest/device-directory';
import { pushBindings, pushUrls } from '../apps/server/src/modules/push-docking/push-docking.table';
import { ensureReadingPartitions } from '../apps/server/src/modules/telemetry/partitions';

export interface PushFigures {
  label: string;
  readingsPerSecond: number;
  deliveriesPerSecond: number;
  readingsDelivered: number;
  /** After ingest stopped: deliveries and reading items per second while the backlog is worked off. */
  drainDeliveriesPerSecond: number;
  drainItemsPerSecond: number;
}

/** A receiver that answers 200 to everything and counts what it got. */
async function startReceiver() {
  let deliveries = 0;
  let items = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      deliveries++;
      items += (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: unknown[] }).items.length;
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    counts: () => ({ deliveries, items }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchPush(
  label: string,
  {
    addresses,
    seconds = 10,
    devices = 10,
    recordsPerMessage = 10,
    inFlight = 8,
  }: {
    addresses: number;
    seconds?: number;
    devices?: number;
    recordsPerMessage?: number;
    inFlight?: number;
  },
): Promise<PushFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-push-'));
  const receiver = await startReceiver();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
    PUSH_ALLOW_HOSTS: '127.0.0.1',
    PUSH_POLL_MS: '1000',
    DEVICE_MESSAGES_PER_MINUTE: '100000000',
  });
  const database = await openDatabase({ dataDir, thread: true });
  const app = await buildApp({ config: { ...config, mqttPort: null }, database, logger: false as never });
  try {
    await app.ready();
    await ensureReadingPartitions(app.db);
    const { companyId } = await seedDemo(app.db);
    const fleet: KnownDevice[] = [];
    for (let i = 0; i < devices; i++) {
      const serial = `SIM${1001 + i}`;
      await addDevice(
        app.db,
        { companyId: companyId!, userId: null, ip: '' },
        { serial, name: `Bench ${serial}` },
      );
      fleet.push((await app.deviceDirectory.find(serial))!);
    }
    if (addresses > 0) {
      const box = new SecretBox(config.secretKey!);
      const rows = await app.db
        .insert(pushUrls)
        .values(
          Array.from({ length: addresses }, (_, i) => ({
            companyId: companyId!,
            name: `Bench receiver ${i}`,
            url: receiver.url,
            events: (process.env.BENCH_PUSH_EVENTS ?? 'reading,alarm,alarmResolved,deviceState').split(','),
            state: 2,
            secretSealed: box.seal(`secret-${i}`),
          })),
        )
        .returning({ id: pushUrls.id });
      await app.db
        .insert(pushBindings)
        .values(rows.flatMap((r) => fleet.map((d) => ({ urlId: r.id, deviceId: d.id }))));
    }
    // BENCH_PUSH_WORKER=0 measures the outbox triggers alone.
    if (process.env.BENCH_PUSH_WORKER !== '0') app.push.start();
    let readings = 0;
    const base = Date.now() - 20 * 86_400_000;
    let seq = 0;
    const started = Date.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      fleet.flatMap((device) =>
        Array.from({ length: inFlight }, async () => {
          while (Date.now() < deadline) {
            const records = Array.from({ length: recordsPerMessage }, () => {
              const ts = base + seq++ * 1000;
              return { ts, channels: [{ ch: 1, v: 4 + (ts % 300) / 100 }], mode: 'normal' as const };
            });
            const result = await app.ingest.ingest(device, records);
            readings += result.stored;
          }
        }),
      ),
    );
    const elapsed = (Date.now() - started) / 1000;
    const sent = receiver.counts();
    // Then ingest stops and the worker works off the backlog for a while (its duty cap still on).
    const drainSeconds = addresses > 0 ? Number(process.env.BENCH_PUSH_DRAIN_SECONDS ?? 5) : 0;
    await new Promise((r) => setTimeout(r, drainSeconds * 1000));
    const drained = receiver.counts();
    const [left] = await queryRows<{ outbox: string; queued: string }>(
      app.db,
      sql`select (select count(*) from push_outbox) as outbox,
        (select count(*) from push_deliveries where status <> 'delivered') as queued`,
    );
    return {
      label: `${label} (${addresses} addresses; after the run ${left?.outbox ?? 0} outbox rows and ${left?.queued ?? 0} deliveries still queued)`,
      readingsPerSecond: Math.round(readings / elapsed),
      deliveriesPerSecond: Math.round(sent.deliveries / elapsed),
      readingsDelivered: sent.items,
      drainDeliveriesPerSecond: drainSeconds
        ? Math.round((drained.deliveries - sent.deliveries) / drainSeconds)
        : 0,
      drainItemsPerSecond: drainSeconds ? Math.round((drained.items - sent.items) / drainSeconds) : 0,
    };
  } finally {
    await app.close();
    await database.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * `npm run bench -- push`: ingest with and without enabled push addresses, and deliveries. The two
 * runs alternate BENCH_PUSH_ROUNDS times (3): on a shared virtual machine the rate without any
 * address alone moved by a sixth between runs a minute apart, so one pair proves nothing either
 * way; each pair's share and the median share are printed.
 */
export async function pushFigures(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const addresses = Number(process.env.BENCH_PUSH_ADDRESSES ?? 100);
  const rounds = Number(process.env.BENCH_PUSH_ROUNDS ?? 3);
  console.log(
    `## Push docking, embedded, ${seconds} s of ingest through the ingest service, ${rounds} alternating pairs (goal: ingest with ${addresses} enabled addresses within 10 % of ingest without)`,
  );
  const shares: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const without = await benchPush('no push address', { addresses: 0, seconds });
    console.log(`- pair ${round}, ${without.label}: ${without.readingsPerSecond} readings/s`);
    const withPush = await benchPush('push addresses bound to every device', { addresses, seconds });
    const share = (withPush.readingsPerSecond / without.readingsPerSecond) * 100;
    shares.push(share);
    console.log(
      `- pair ${round}, ${withPush.label}: ${withPush.readingsPerSecond} readings/s (${share.toFixed(1)} % of without); ${withPush.deliveriesPerSecond} deliveries/s to a local receiver, ${withPush.readingsDelivered} reading items delivered; then, ingest stopped, ${withPush.drainDeliveriesPerSecond} deliveries/s (${withPush.drainItemsPerSecond} reading items/s)`,
    );
  }
  console.log(
    `- median share: ${median(shares).toFixed(1)} % (pairs: ${shares.map((s) => s.toFixed(1)).join(', ')})`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  pushFigures().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
