import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { DATABASE_TEMPLATE_DIR } from '../db/database-template';

/** The local PostgreSQL server (always running here and in CI) for tests that need PostgreSQL itself. */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL (created here, dropped on close), so that the
 * same suite proves both drivers. TEST_DATABASE_THREAD=1 runs the suite on the embedded database
 * in its own thread, as the server runs it (`npm run test:thread`), so that the thread's own
 * protocol code (pglite-thread.mjs) answers every statement the suite sends.
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl && process.env.TEST_DATABASE_THREAD === '1') return openThreadedTestDatabase();
  if (!serverUrl) return openEmbeddedTestDatabase();
  return openPostgresTestDatabase(serverUrl);
}

/** The embedded database in memory, in-process, from the run's migrated template: whatever TEST_DATABASE_URL says. */
export function openEmbeddedTestDatabase(): Promise<Database> {
  return openDatabase({ template: migratedTemplate() });
}

/**
 * The embedded database in its own thread, as the server runs it, on a data directory of its own
 * started from the template `npm start` and `npm test` build (without it, PGlite's initdb and the
 * migrations run: several seconds more). The directory goes with `close`.
 */
export async function openThreadedTestDatabase(): Promise<Database> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-thread-'));
  const database = await openDatabase({ dataDir, thread: true, templateDir: DATABASE_TEMPLATE_DIR });
  return {
    ...database,
    close: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated embedded database (PGlite's data directory dump), or '' on PostgreSQL. */
    pgliteTemplate: string;
  }
}

let template: Blob | undefined;

/**
 * The migrated database the run's global setup dumped (test/global-setup.ts), read once per
 * worker: loading it takes a second where a new database and its migrations take several, for
 * every test file. Migrations still run on it, and find nothing to do.
 */
function migratedTemplate(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  template ??= new Blob([readFileSync(file)]);
  return template;
}

/**
 * A new, migrated database on a PostgreSQL server (TEST_DATABASE_URL, else the local server),
 * dropped on close; for tests of what only PostgreSQL does (LISTEN/NOTIFY between instances).
 */
export async function openPostgresTestDatabase(
  serverUrl = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL,
): Promise<Database & { url: string }> {
  const name = `cc_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect().catch((error: Error) => {
    throw new Error(
      `This test needs a PostgreSQL server at ${serverUrl} (${error.message}). Start one, or set TEST_DATABASE_URL to one that may create databases.`,
    );
  });
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
