// First: V8's settings must be in place before the rest of the server is loaded.
import './lib/v8-flags';
import { openDatabase } from './db/client';
import { DATABASE_TEMPLATE_DIR } from './db/database-template';
import { type Config, ConfigError, loadConfig } from './lib/config';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { assertPortsFree, PortInUseError } from './lib/listen';
import {
  DEMO_SEED_PROCESS_ENV,
  DemoSeedProcessError,
  firstDemoStart,
  seedDemoInChildProcess,
  stopWithParent,
} from './modules/demo/seed-process';
import { FileStoreError } from './modules/files/store/store';

/**
 * Starts the platform: database (embedded PGlite or DATABASE_URL) with migrations, then the rest
 * (run-server.ts: HTTP server with the console, /api and the live socket, demo seed, background
 * jobs, the embedded MQTT broker). Stops gracefully on SIGINT/SIGTERM. Problems an operator can
 * fix are printed as one clear line, not a stack trace.
 *
 * This file imports only what opening the database needs. The embedded database starts in a
 * thread of its own (WebAssembly and PostgreSQL's start, over a second of CPU), and the rest of
 * the server, more than a second of module loading, is imported meanwhile: on two cores the
 * two overlap instead of adding up (docs/performance.md, "Start and memory").
 */
async function main() {
  const config = loadConfig();
  if (process.env[DEMO_SEED_PROCESS_ENV] === '1') return seedDemoAlone(config);
  // A taken port is reported before the database takes its seconds to open.
  await assertPortsFree(config.host, [
    [config.port, 'PORT'],
    [config.mqttPort, 'MQTT_PORT'],
  ]);
  // So is a bucket that cannot be used: better one line naming S3_URL now than failed uploads later.
  if (config.s3) await verifyBucket(config);
  // PGlite is single-process: a second process on the same DATA_DIR would corrupt it.
  const unlockDataDir = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir, 'the server');
  process.once('exit', unlockDataDir);
  // The first start seeds the demo in a child process and then opens the database as a restart.
  const seeded = firstDemoStart(config) ? seedDemoInChildProcess() : Promise.resolve();
  const [database, { runServer }] = await Promise.all([
    seeded.then(() => openConfiguredDatabase(config)),
    import('./run-server'),
  ]);
  await runServer(config, database);
}

function openConfiguredDatabase(config: Config) {
  return openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    templateDir: DATABASE_TEMPLATE_DIR,
    preparedStatements: config.databasePreparedStatements,
  });
}

/** The child process of a first start (modules/demo/seed-process.ts): the demo seed, nothing else. */
async function seedDemoAlone(config: Config) {
  stopWithParent();
  const [database, { seedDemoOnly }] = await Promise.all([
    openConfiguredDatabase(config),
    import('./run-server'),
  ]);
  await seedDemoOnly(config, database);
  // Everything is closed; a timer some module left behind must not keep the first start waiting.
  process.exit(0);
}

/** The S3 client is loaded only when S3_URL is set (and so costs a disk-only start nothing). */
async function verifyBucket(config: Config) {
  const { openFileStore } = await import('./modules/files/store/open-store');
  const store = await openFileStore(config);
  try {
    await store.verify();
  } finally {
    store.close();
  }
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof FileStoreError ||
    error instanceof PortInUseError ||
    error instanceof DataDirLockedError ||
    error instanceof DemoSeedProcessError
  ) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
