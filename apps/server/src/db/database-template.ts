import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A new embedded database started from a copy of a ready one.
 *
 * A new PGlite data directory costs initdb: PGlite runs it in a second WebAssembly instance of
 * PostgreSQL, in memory, and copies the result out; then the migrations follow. Measured here,
 * a start on a new data directory peaked near 1 GB resident (a restart: about 530 MB), every
 * time a data directory was new (the demo's first start, a reset demo, every server test that
 * starts a process). The start script (scripts/build-server-if-stale.mjs) builds the template once, when PGlite or the
 * migrations change, exactly as the server would build a database; a new data directory is
 * then a copy of files (about 40 MB), and the migrations find nothing left to do. What the copy
 * holds is an empty, migrated, cleanly shut down cluster: no company, user or secret.
 */

/** Where `npm start` keeps the template: beside the server bundle, outside the repository's sources. */
export const DATABASE_TEMPLATE_DIR = path.resolve(import.meta.dirname, '../../dist/pgdata-template');
export const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

/** What a template was built from; one that does not match is rebuilt, never used. */
export interface TemplateStamp {
  pglite: string;
  migrations: string;
}

const STAMP_FILE = 'template.json';

/** The installed PGlite's version: a data directory is tied to the PostgreSQL that wrote it. */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A hash of every committed migration, so a new or edited one makes the template stale. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsFolder).sort()) {
    if (!name.endsWith('.sql')) continue;
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(path.join(migrationsFolder, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

export function currentStamp(): TemplateStamp {
  return { pglite: pgliteVersion(), migrations: migrationsHash() };
}

export function readTemplateStamp(templateDir: string): TemplateStamp | null {
  try {
    return JSON.parse(readFileSync(path.join(templateDir, STAMP_FILE), 'utf8')) as TemplateStamp;
  } catch {
    return null;
  }
}

export function writeTemplateStamp(templateDir: string, stamp: TemplateStamp) {
  writeFileSync(path.join(templateDir, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * Fills the empty data directory `pgdata` with a copy of the template, when there is one for the
 * installed PGlite (older migrations are fine: they are applied after, as on any start). The copy
 * is made beside it and renamed into place, so an interrupted copy never looks like a database.
 * Returns whether it did; otherwise PGlite runs initdb as before.
 */
export function startFromTemplate(templateDir: string | undefined, pgdata: string): boolean {
  if (!templateDir || existsSync(path.join(pgdata, 'PG_VERSION'))) return false;
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return false;
  const stamp = readTemplateStamp(templateDir);
  const source = path.join(templateDir, 'pgdata');
  if (!stamp || stamp.pglite !== pgliteVersion() || !existsSync(path.join(source, 'PG_VERSION')))
    return false;
  const partial = `${pgdata}.copying-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(source, partial, { recursive: true });
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(partial, pgdata);
  return true;
}
