import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { runsBeforeCommit } from './before-commit';
import { CountingClient, DatabaseChanges } from './database-changes';
import { migrationsFolder, startFromTemplate } from './database-template';
import { countPoolChanges } from './pg-changes';
import { oneQueryAtATime } from './pg-one-at-a-time';
import { prepareMarkedStatements } from './pg-planned-once';
import { PGliteThread } from './pglite-proxy';
import { EMBEDDED_DATABASE_SETTINGS, settingsAsStartParams } from './pglite-settings';
import type * as schema from './schema';

export type Schema = typeof schema;
/** The query layer both drivers share: code takes a `Db` and never knows which database runs it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: service functions accept both. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL server's address (absent on PGlite): the live relay opens its LISTEN client with it. */
  url?: string;
  /** The changes counted (database-changes.ts): complete on the embedded database; on PostgreSQL, while the change relay listens. */
  changes?: DatabaseChanges;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; without it the embedded PGlite runs. */
  url?: string;
  /** Where PGlite keeps its files; `memory://` or undefined keeps it in memory (tests). */
  dataDir?: string;
  /**
   * PGlite in a thread of its own (pglite-proxy.ts) rather than in this one: the default with a
   * data directory, i.e. the server. Tests in memory keep it in-process unless they ask.
   */
  thread?: boolean;
  /**
   * A migrated database to start from (PGlite's `dumpDataDir`), in memory only: the tests load
   * one built once per run instead of migrating a new database for every file.
   */
  template?: Blob;
  /**
   * A migrated data directory to copy when `dataDir` holds no database yet, instead of PGlite's
   * initdb (database-template.ts; the server passes the one `npm start` builds).
   */
  templateDir?: string;
  /** PostgreSQL: the planned-once statements prepared on each connection (default true). */
  preparedStatements?: boolean;
}

/**
 * Opens the database and applies the committed migrations.
 *
 * The drivers, the schema and PGlite's own module are imported here, not at the top: the server
 * opens the database first thing, and the embedded database's thread (WebAssembly, PostgreSQL's
 * start) then runs on the other core while this thread loads the rest of the server
 * (server.ts). Only the driver in use is loaded.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.preparedStatements ?? true);
  const onDisk = options.dataDir && options.dataDir !== 'memory://';
  const dir = onDisk ? path.join(options.dataDir!, 'pgdata') : undefined;
  if (dir) {
    mkdirSync(options.dataDir!, { recursive: true });
    if (!startFromTemplate(options.templateDir, dir)) mkdirSync(dir, { recursive: true });
  }
  // The thread starts before anything else is awaited.
  const starting =
    (options.thread ?? Boolean(dir)) ? PGliteThread.start(dir, EMBEDDED_DATABASE_SETTINGS) : null;
  const [tables, { drizzle }, { migrate }] = await Promise.all([
    import('./schema'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  let client: PGlite | PGliteThread;
  if (starting) client = await starting;
  else {
    const { PGlite } = await import('@electric-sql/pglite');
    const startParams = settingsAsStartParams(PGlite.defaultStartParams, EMBEDDED_DATABASE_SETTINGS);
    // Not `new PGlite(undefined, options)`: PGlite then ignores `loadDataDir` and runs initdb, so
    // every test file migrated a new database from scratch (a second of CPU each).
    client = dir
      ? new PGlite(dir, { startParams })
      : new PGlite({ startParams, ...(options.template ? { loadDataDir: options.template } : {}) });
    await client.waitReady;
  }
  // The thread answers the part of PGlite's interface that drizzle's driver uses, and so does
  // the counter of changes wrapped around either.
  const changes = new DatabaseChanges();
  const db = runsBeforeCommit(
    drizzle(new CountingClient(client, changes) as unknown as PGlite, { schema: tables }) as unknown as Db,
  );
  await migrate(db as never, { migrationsFolder });
  return { db, kind: 'pglite', changes, close: () => client.close() };
}

/** The advisory lock key that serialises migrations across instances ("ccmigrat" as a number). */
const MIGRATION_LOCK_KEY = 0x63636d6967726174n.toString();

async function openPostgres(url: string, preparedStatements: boolean): Promise<Database> {
  const [tables, { default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import('./schema'),
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  if (preparedStatements) prepareMarkedStatements(pool);
  // Counted here; complete once the app's change relay hears the other instances (pg-change-relay.ts).
  const changes = new DatabaseChanges({ complete: false });
  countPoolChanges(pool, changes);
  oneQueryAtATime(pool);
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  // Instances starting together migrate one after the other: the first applies what is missing
  // under a session advisory lock, the others then find nothing left to do. The lock is held on
  // one connection, and the migrations run on that same connection.
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client, { schema: tables }) as never, { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
  const db = runsBeforeCommit(drizzle(pool, { schema: tables }) as unknown as Db);
  return { db, kind: 'postgres', url, changes, close: () => pool.end() };
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A new in-memory embedded database with the migrations applied, as a data directory dump. */
export async function migratedDump(): Promise<Blob> {
  const [tables, { PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('./schema'),
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = new PGlite();
  await client.waitReady;
  await migrate(drizzle(client, { schema: tables }) as never, { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  return dump;
}
