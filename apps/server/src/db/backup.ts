import { execFile } from 'node:child_process';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { EMBEDDED_DATABASE_SETTINGS, settingsAsStartParams } from './pglite-settings';

const run = promisify(execFile);

/** pg_dump's custom format starts with these bytes; PGlite's dump is a gzip tarball. */
const PG_DUMP_MAGIC = 'PGDMP';
const GZIP_MAGIC = [0x1f, 0x8b];

export class BackupError extends Error {}

async function magicOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r').catch(() => {
    throw new BackupError(`Cannot read ${file}.`);
  });
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    return head;
  } finally {
    await handle.close();
  }
}

/** A PostgreSQL client program's failure as one line: its own message, not a stack. */
function clientFailure(program: string, error: unknown): BackupError {
  const e = error as NodeJS.ErrnoException & { stderr?: string };
  if (e.code === 'ENOENT')
    return new BackupError(
      `${program} was not found: install PostgreSQL's client programs (Debian: postgresql-client).`,
    );
  const said = (e.stderr ?? e.message).trim().split('\n')[0];
  return new BackupError(`${program} failed: ${said}`);
}

/**
 * Backs up the database into one file. PostgreSQL: `pg_dump --format=custom` (the server keeps
 * running; the dump is one consistent snapshot). Embedded: the data directory as PGlite's gzip
 * tarball, which needs the server stopped (one process per data directory).
 */
export async function backupDatabase(
  options: { url?: string; dataDir: string },
  file: string,
): Promise<void> {
  if (options.url) {
    await run('pg_dump', ['--format=custom', '--no-owner', '--file', file, '--dbname', options.url]).catch(
      (error: unknown) => {
        throw clientFailure('pg_dump', error);
      },
    );
    return;
  }
  const dir = path.join(options.dataDir, 'pgdata');
  if (!existsSync(path.join(dir, 'PG_VERSION')))
    throw new BackupError(`There is no embedded database in ${options.dataDir} (DATA_DIR) to back up.`);
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(dir, {
    startParams: settingsAsStartParams(PGlite.defaultStartParams, EMBEDDED_DATABASE_SETTINGS),
  });
  await client.waitReady;
  try {
    const dump = await client.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/**
 * Restores into a new, empty PostgreSQL database: refuses one that holds tables, so a restore
 * never overwrites data (and a dump of partitioned readings restores cleanly only into nothing).
 */
async function assertEmptyPostgres(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    if ((rows[0]?.n ?? 0) > 0)
      throw new BackupError(
        'The database of DATABASE_URL is not empty: create a new database (createdb) and point DATABASE_URL at it, then restore.',
      );
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Cannot reach DATABASE_URL: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Restores a backup made by `backupDatabase` of the same kind. PostgreSQL: `pg_restore` into
 * DATABASE_URL, which must be a new, empty database. Embedded: the
 * current data directory is kept beside it as `pgdata.before-restore-<time>`, never deleted, and
 * the backup becomes the data directory. Returns where the earlier embedded data went.
 */
export async function restoreDatabase(
  options: { url?: string; dataDir: string },
  file: string,
  now = new Date(),
): Promise<{ keptAs: string | null }> {
  const head = await magicOf(file);
  const isPgDump = head.toString('latin1', 0, 5) === PG_DUMP_MAGIC;
  const isEmbedded = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  if (options.url) {
    if (!isPgDump)
      throw new BackupError(
        `${file} is not a PostgreSQL backup${isEmbedded ? ' (it is an embedded database backup: restore it without DATABASE_URL)' : ''}.`,
      );
    await assertEmptyPostgres(options.url);
    await run('pg_restore', [
      '--no-owner',
      '--single-transaction',
      '--exit-on-error',
      '--dbname',
      options.url,
      file,
    ]).catch((error: unknown) => {
      throw clientFailure('pg_restore', error);
    });
    return { keptAs: null };
  }
  if (!isEmbedded)
    throw new BackupError(
      `${file} is not an embedded database backup${isPgDump ? ' (it is a PostgreSQL backup: set DATABASE_URL to restore it)' : ''}.`,
    );
  const dir = path.join(options.dataDir, 'pgdata');
  let keptAs: string | null = null;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    keptAs = `${dir}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dir, keptAs);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(dir, {
    loadDataDir: new Blob([await readFile(file)]),
    startParams: settingsAsStartParams(PGlite.defaultStartParams, EMBEDDED_DATABASE_SETTINGS),
  });
  try {
    await client.waitReady;
    await client.query('select 1');
  } catch (error) {
    throw new BackupError(`${file} could not be restored: ${(error as Error).message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
  return { keptAs };
}
