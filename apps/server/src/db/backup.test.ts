import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { addInventory, type InventoryItem } from '../modules/inventory/inventory.service';
import { deviceInventory } from '../modules/inventory/inventory.table';
import { LOCAL_POSTGRES_URL, openPostgresTestDatabase } from '../test/test-database';
import { backupDatabase, restoreDatabase } from './backup';
import { type Db, openDatabase } from './client';

const logger = (serial: string): InventoryItem => ({
  serial,
  model: 'CC-T1',
  version: 'standard',
  channels: [{ ch: 1, type: 'temperature', unit: '°C', min: -40, max: 85 }],
});

async function serials(db: Db): Promise<string[]> {
  const rows = await db.select({ serial: deviceInventory.serial }).from(deviceInventory);
  return rows
    .map((r) => r.serial)
    .filter((s) => s.startsWith('BK'))
    .sort();
}

function withoutDatabaseUrl(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...rest } = process.env;
  return rest;
}

const adminEntry = path.resolve(import.meta.dirname, '../admin.ts');
function admin(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', adminEntry, ...args], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...withoutDatabaseUrl(), ...env },
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Backup and restore of both databases, one command each (`npm run admin -- backup|restore <file>`). */
describe('backup and restore', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'cc-backup-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('round-trips the embedded database through the admin commands, keeping what it replaced', async () => {
    const dataDir = path.join(scratch, 'embedded');
    const file = path.join(scratch, 'embedded.tar.gz');
    let database = await openDatabase({ dataDir, thread: false });
    await addInventory(database.db, [logger('BK0001')]);
    await database.close();

    const backup = admin(['backup', file], { DATA_DIR: dataDir });
    expect(backup.output).toContain(`into ${file}`);
    expect(backup.code).toBe(0);
    expect([...readFileSync(file).subarray(0, 2)]).toEqual([0x1f, 0x8b]);

    // Something written after the backup is gone once it is restored, and kept aside.
    database = await openDatabase({ dataDir, thread: false });
    await addInventory(database.db, [logger('BK0002')]);
    expect(await serials(database.db)).toEqual(['BK0001', 'BK0002']);
    await database.close();

    const restore = admin(['restore', file], { DATA_DIR: dataDir });
    expect(restore.code).toBe(0);
    const keptAs = /kept in (\S+)\./.exec(restore.output)?.[1];
    expect(keptAs && existsSync(path.join(keptAs, 'PG_VERSION'))).toBe(true);
    database = await openDatabase({ dataDir, thread: false });
    expect(await serials(database.db)).toEqual(['BK0001']);
    await database.close();
  }, 120_000);

  it('says what is wrong instead of a stack: no database, the wrong kind of file', async () => {
    const empty = path.join(scratch, 'empty');
    const none = admin(['backup', path.join(scratch, 'none.tar.gz')], { DATA_DIR: empty });
    expect(none.code).toBe(1);
    expect(none.output).toContain(`There is no embedded database in ${empty} (DATA_DIR) to back up.`);

    const fake = path.join(scratch, 'fake.dump');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(fake, 'PGDMP not really');
    const wrongKind = admin(['restore', fake], { DATA_DIR: empty });
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.output).toContain(
      'is not an embedded database backup (it is a PostgreSQL backup: set DATABASE_URL to restore it).',
    );
    for (const result of [none, wrongKind]) expect(result.output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('round-trips PostgreSQL with pg_dump and pg_restore into a new empty database', async () => {
    const source = await openPostgresTestDatabase();
    const serverUrl = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL;
    const name = `cc_restore_${Date.now()}`;
    const adminClient = new pg.Client({ connectionString: serverUrl });
    await adminClient.connect();
    await adminClient.query(`create database ${name}`);
    const targetUrl = new URL(serverUrl);
    targetUrl.pathname = `/${name}`;
    try {
      await addInventory(source.db, [logger('BK0101')]);
      const file = path.join(scratch, 'pg.dump');
      await backupDatabase({ url: source.url, dataDir: scratch }, file);
      expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('PGDMP');
      await expect(restoreDatabase({ dataDir: scratch }, file)).rejects.toThrow(/set DATABASE_URL/);
      // A database that holds data is never overwritten.
      await expect(restoreDatabase({ url: source.url, dataDir: scratch }, file)).rejects.toThrow(
        /is not empty/,
      );
      await restoreDatabase({ url: targetUrl.toString(), dataDir: scratch }, file);
      // The restored database opens as the server opens it (migrations already applied) and holds the data.
      const target = await openDatabase({ url: targetUrl.toString() });
      expect(await serials(target.db)).toEqual(['BK0101']);
      await target.close();
    } finally {
      await source.close();
      await adminClient.query(`drop database if exists ${name} with (force)`);
      await adminClient.end();
    }
  }, 120_000);
});
