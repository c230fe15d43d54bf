import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { ConfigError, loadConfig } from './lib/config';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { assertPortsFree, PortInUseError } from './lib/listen';
import { startAccountCancellationSweep } from './modules/auth/account-cancellation';
import { seedDemoFleet, startDemoFeed } from './modules/demo/demo-fleet';
import { seedDemo } from './modules/demo/demo-seed';
import { startDeviceBroker } from './modules/ingest/device-broker';
import { connectExternalBroker } from './modules/ingest/external-broker';
import { createMailer } from './modules/notify/mailer';
import { startReminderSweep } from './modules/reminders/reminder-sweep';
import { startOfflineSweep } from './modules/telemetry/offline-sweep';
import { ensureReadingPartitions } from './modules/telemetry/partitions';
import { startStorageMaintenance } from './modules/telemetry/storage-maintenance';

/**
 * Starts the platform: database (embedded PGlite or DATABASE_URL) with migrations, demo seed,
 * HTTP server (console, /api, live socket) and the embedded MQTT broker. Stops gracefully on
 * SIGINT/SIGTERM. Problems an operator can fix are printed as one clear line, not a stack trace.
 */
/** How often devices are checked for missed uploads. */
const OFFLINE_SWEEP_MS = 30_000;
/** How often idle accounts are checked for the cancellation warning and cancellation. */
const ACCOUNT_SWEEP_MS = 6 * 3_600_000;
/** Reminders (expiry, too few alarm recipients, low credit) are checked hourly. */
const REMINDER_SWEEP_MS = 3_600_000;
/** How often open alarms are checked for a reminder or escalation that fell due (at most this late). */
const FOLLOW_UP_POLL_MS = 10_000;

async function main() {
  const config = loadConfig();
  // A taken port is reported before the database takes its seconds to open.
  await assertPortsFree(config.host, [
    [config.port, 'PORT'],
    [config.mqttPort, 'MQTT_PORT'],
  ]);
  // PGlite is single-process: a second process on the same DATA_DIR would corrupt it.
  const unlockDataDir = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir, 'the server');
  process.once('exit', unlockDataDir);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });

  await ensureReadingPartitions(database.db);
  if (config.demo) {
    const { created, companyId } = await seedDemo(database.db);
    if (companyId !== null) {
      await seedDemoFleet(database.db, companyId, app.ingest, app.deviceDirectory);
      const stopFeed = startDemoFeed(app.ingest, app.deviceDirectory);
      app.addHook('onClose', async () => stopFeed());
    }
    app.log.info({ created }, 'demo seed: demo@example.com / Demo1234 in "Demo Cold Chain"');
  }
  const stopSweep = startOfflineSweep(database.db, OFFLINE_SWEEP_MS, (devices) => {
    void app.alarms.onOffline(devices).then(() => app.delivery.wake());
  });
  app.addHook('onClose', async () => stopSweep());
  // Reading storage: partitions ahead of time, and readings older than two days packed (modules/telemetry).
  const stopMaintenance = startStorageMaintenance(database.db, (err) =>
    app.log.error({ err }, 'reading storage maintenance failed'),
  );
  app.addHook('onClose', stopMaintenance);
  // Spec section 9: accounts idle for 12 months are warned, then cancelled (modules/auth).
  const sweepMailer = createMailer(config.smtpUrl, config.mailFrom);
  const stopCancellation = startAccountCancellationSweep(database.db, sweepMailer, ACCOUNT_SWEEP_MS);
  app.addHook('onClose', async () => {
    stopCancellation();
    sweepMailer?.close();
  });
  // Reminders as notices: expiring devices, too few alarm recipients, low credit (modules/reminders).
  const stopReminders = startReminderSweep(database.db, REMINDER_SWEEP_MS, (err) =>
    app.log.error({ err }, 'reminder sweep failed'),
  );
  app.addHook('onClose', async () => stopReminders());
  // Alarm messages: a queue on the database, polled and woken by the engine (modules/delivery).
  app.delivery.start();
  // Reminders and escalation of open alarms, due by the server's clock (modules/alarms/alarm-follow-ups.ts).
  app.alarmFollowUps.start(FOLLOW_UP_POLL_MS);

  const broker =
    config.mqttPort === null
      ? null
      : await startDeviceBroker(app, config.mqttPort, config.host).catch(async (error) => {
          await app.close();
          await database.close();
          throw error;
        });
  const external = config.mqttUrl
    ? await connectExternalBroker(app, { url: config.mqttUrl, group: config.mqttShareGroup }).catch(
        async (error: Error) => {
          await app.close();
          await database.close();
          throw new ConfigError(`Could not connect to MQTT_URL (${config.mqttUrl}): ${error.message}`);
        },
      )
    : null;
  /** Devices first (no new readings), then HTTP and sockets (waiting for queued writes), then the database. */
  const shutdown = async () => {
    await broker?.close();
    await external?.close();
    await app.close();
    await database.close();
  };

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'stopping after an unexpected error');
    else app.log.info({ signal }, 'stopping');
    await shutdown();
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await shutdown();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new PortInUseError(
        `Port ${config.port} (PORT) is ${code === 'EADDRINUSE' ? 'already in use' : 'not allowed'}. Set PORT to a free port, for example PORT=${config.port + 1}.`,
      );
    }
    throw error;
  }
  app.log.info(
    { port: config.port, mqttPort: broker?.port ?? null, database: database.kind, dataDir: config.dataDir },
    `console at http://localhost:${config.port}/`,
  );
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof PortInUseError ||
    error instanceof DataDirLockedError
  ) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
