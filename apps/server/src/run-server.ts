import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { Database } from './db/client';
import { type Config, ConfigError } from './lib/config';
import { PortInUseError } from './lib/listen';
import { secretBoxFor } from './lib/secret-box';
import { startAccountCancellationSweep } from './modules/auth/account-cancellation';
import { seedDemoBilling } from './modules/demo/demo-billing';
import { seedDemoCameras } from './modules/demo/demo-cameras';
import { seedDemoFleet, startDemoFeed } from './modules/demo/demo-fleet';
import { seedDemoLogistics } from './modules/demo/demo-logistics';
import { seedDemoOperator } from './modules/demo/demo-operator';
import { seedDemoPlatforms } from './modules/demo/demo-platforms';
import { seedDemo } from './modules/demo/demo-seed';
import { startDeviceBroker } from './modules/ingest/device-broker';
import { sweepGate } from './modules/jobs/sweep-slots';
import { createMailer } from './modules/notify/mailer';
import { applyOperatorAccounts } from './modules/operator/operators.service';
import { startReminderSweep } from './modules/reminders/reminder-sweep';
import { startOfflineSweep } from './modules/telemetry/offline-sweep';
import { ensureReadingPartitions } from './modules/telemetry/partitions';
import { startStorageMaintenance } from './modules/telemetry/storage-maintenance';

/** How often devices are checked for missed uploads. */
const OFFLINE_SWEEP_MS = 30_000;
/** How often idle accounts are checked for the cancellation warning and cancellation. */
const ACCOUNT_SWEEP_MS = 6 * 3_600_000;
/** Reminders (expiry, too few alarm recipients, low credit) are checked hourly. */
const REMINDER_SWEEP_MS = 3_600_000;
/** How often open alarms are checked for a reminder or escalation that fell due (at most this late). */
const FOLLOW_UP_POLL_MS = 10_000;
/** How often the job queue looks for due jobs of other instances (its own wake it at once). */
const JOB_POLL_MS = 15_000;

/**
 * Writes the demo: its company, people and monitors with a week of history judged by the alarm
 * engine on the first start; on a later start, what is missing and the readings since the last
 * one. Returns the story's anchor for the live feed (null without the demo company).
 */
async function seedDemoData(app: FastifyInstance, config: Config, database: Database) {
  const { created, companyId } = await seedDemo(database.db);
  await seedDemoOperator(database.db);
  await seedDemoPlatforms(database.db, secretBoxFor(config));
  let anchor: number | null = null;
  if (companyId !== null) {
    anchor = await seedDemoFleet(database.db, companyId, app);
    await seedDemoBilling(database.db, companyId);
    app.addHook('onClose', await seedDemoLogistics(database.db, companyId, app));
    await seedDemoCameras(database.db, companyId, app);
  }
  app.log.info({ created }, 'demo seed: demo@example.com / Demo1234 in "Demo Cold Chain"');
  return anchor;
}

/**
 * The first start's demo seed, in a process of its own (server.ts, demo/seed-process.ts): the
 * app without its listeners, sweeps or live feed, the seed, then a clean close of everything.
 */
export async function seedDemoOnly(config: Config, database: Database) {
  const app = await buildApp({ config, database });
  try {
    await ensureReadingPartitions(database.db);
    await seedDemoData(app, config, database);
    await app.alarms.idle();
  } finally {
    await app.close();
    await database.close();
  }
}

/**
 * Everything after the database (server.ts opens it): the HTTP app, the demo seed, the
 * background jobs, the device brokers and the listening socket, with graceful shutdown.
 */
export async function runServer(config: Config, database: Database) {
  const app = await buildApp({ config, database });

  await ensureReadingPartitions(database.db);
  if (config.demo) {
    const anchor = await seedDemoData(app, config, database);
    if (anchor !== null) {
      const stopFeed = startDemoFeed(app, anchor);
      app.addHook('onClose', async () => stopFeed());
    }
  }
  // Platform operators named in OPERATOR_ACCOUNTS (modules/operator); unknown accounts are only logged.
  const unknownOperators = await applyOperatorAccounts(database.db, config.operatorAccounts);
  if (unknownOperators.length > 0)
    app.log.warn({ accounts: unknownOperators }, 'OPERATOR_ACCOUNTS names accounts that do not exist yet');
  // Each periodic sweep runs in one instance per period when several share the database.
  const gate = sweepGate(database.db, app.jobs.owner);
  const stopSweep = startOfflineSweep(
    database.db,
    OFFLINE_SWEEP_MS,
    (devices) => {
      void app.alarms.onOffline(devices).then(() => app.delivery.wake());
    },
    gate,
  );
  app.addHook('onClose', async () => stopSweep());
  // Reading storage: partitions ahead of time, and readings older than two days packed (modules/telemetry).
  const stopMaintenance = startStorageMaintenance(
    database.db,
    (err) => app.log.error({ err }, 'reading storage maintenance failed'),
    undefined,
    gate,
  );
  app.addHook('onClose', stopMaintenance);
  // Spec section 9: accounts idle for 12 months are warned, then cancelled (modules/auth).
  const sweepMailer = createMailer(config.smtpUrl, config.mailFrom);
  const stopCancellation = startAccountCancellationSweep(database.db, sweepMailer, ACCOUNT_SWEEP_MS, gate);
  app.addHook('onClose', async () => {
    stopCancellation();
    sweepMailer?.close();
  });
  // Reminders as notices: expiring devices, too few alarm recipients, low credit (modules/reminders).
  const stopReminders = startReminderSweep(
    database.db,
    REMINDER_SWEEP_MS,
    (err) => app.log.error({ err }, 'reminder sweep failed'),
    gate,
  );
  app.addHook('onClose', async () => stopReminders());
  // Alarm messages: a queue on the database, polled and woken by the engine (modules/delivery).
  app.delivery.start();
  // Reminders and escalation of open alarms, due by the server's clock (modules/alarms/alarm-follow-ups.ts).
  app.alarmFollowUps.start(FOLLOW_UP_POLL_MS);
  // Scheduled and queued background jobs, once across instances (modules/jobs): backup tasks.
  app.jobs.start(JOB_POLL_MS);
  // Push docking: routes its outbox and sends deliveries, once across instances (modules/push-docking).
  app.push.start();

  const broker =
    config.mqttPort === null
      ? null
      : await startDeviceBroker(app, config.mqttPort, config.host).catch(async (error) => {
          await app.close();
          await database.close();
          throw error;
        });
  // The MQTT client library is loaded only for an external broker.
  const external = config.mqttUrl
    ? await (await import('./modules/ingest/external-broker'))
        .connectExternalBroker(app, {
          url: config.mqttUrl,
          group: config.mqttShareGroup,
          clientId: config.mqttClientId,
        })
        .catch(async (error: Error) => {
          await app.close();
          await database.close();
          throw new ConfigError(`Could not connect to MQTT_URL (${config.mqttUrl}): ${error.message}`);
        })
    : null;
  // `/readyz` answers 503 until the broker is attached, and while it is down (modules/system/readiness.ts).
  if (broker) app.readiness.attachBroker(() => broker.listening());
  if (external) app.readiness.attachBroker(() => external.connected());
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
