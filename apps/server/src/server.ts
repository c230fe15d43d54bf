import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { ConfigError, loadConfig } from './lib/config';
import { PortInUseError } from './lib/listen';
import { seedDemo } from './modules/demo/demo-seed';
import { startDeviceBroker } from './modules/ingest/device-broker';
import { ensureReadingPartitions } from './modules/telemetry/partitions';

/**
 * Starts the platform: database (embedded PGlite or DATABASE_URL) with migrations, demo seed,
 * HTTP server (console, /api, live socket) and the embedded MQTT broker. Stops gracefully on
 * SIGINT/SIGTERM. Problems an operator can fix are printed as one clear line, not a stack trace.
 */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });

  if (config.demo) {
    const { created } = await seedDemo(database.db);
    app.log.info({ created }, 'demo seed: demo@example.com / Demo1234 in "Demo Cold Chain"');
  }

  await ensureReadingPartitions(database.db);

  const broker =
    config.mqttPort === null
      ? null
      : await startDeviceBroker(app, config.mqttPort, config.host).catch(async (error) => {
          await app.close();
          await database.close();
          throw error;
        });
  /** Devices first (no new readings), then HTTP and sockets (waiting for queued writes), then the database. */
  const shutdown = async () => {
    await broker?.close();
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
  if (error instanceof ConfigError || error instanceof PortInUseError) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
