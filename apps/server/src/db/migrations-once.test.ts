import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { LOCAL_POSTGRES_URL } from '../test/test-database';
import { openDatabase } from './client';

/** Several instances started together on a new database: each migration is applied once, none fails. */
describe('migrations across instances', () => {
  it('applies every migration once when three instances start together on an empty database', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL;
    const name = `cc_migrate_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ url: url.toString() })));
      const journal = JSON.parse(
        readFileSync(path.resolve(import.meta.dirname, '../../drizzle/meta/_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const { rows } = await check.query<{ n: number }>(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      await check.end();
      expect(rows[0]!.n).toBe(journal.entries.length);
      await Promise.all(instances.map((i) => i.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
