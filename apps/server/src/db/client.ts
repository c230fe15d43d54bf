import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PGliteThread } from './pglite-proxy';
import * as schema from './schema';

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
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

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
}

/** Opens the database and applies the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return { db, kind: 'postgres', url: options.url, close: () => pool.end() };
  }
  const onDisk = options.dataDir && options.dataDir !== 'memory://';
  const dir = onDisk ? path.join(options.dataDir!, 'pgdata') : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  let client: PGlite | PGliteThread;
  if (options.thread ?? Boolean(dir)) {
    client = await PGliteThread.start(dir);
  } else {
    client = new PGlite(dir, options.template && !dir ? { loadDataDir: options.template } : {});
    await client.waitReady;
  }
  // The thread answers the part of PGlite's interface that drizzle's driver uses.
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return { db, kind: 'pglite', close: () => client.close() };
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A new in-memory embedded database with the migrations applied, as a data directory dump. */
export async function migratedDump(): Promise<Blob> {
  const client = new PGlite();
  await client.waitReady;
  await migratePglite(drizzlePglite(client, { schema }) as never, { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  return dump;
}
