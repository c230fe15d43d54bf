import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openEmbeddedTestDatabase,
  openPostgresTestDatabase,
  openThreadedTestDatabase,
} from '../test/test-database';
import type { Database } from './client';
import { runsAlone } from './one-session';

/**
 * Locks that only order concurrent transactions are left out where transactions cannot be
 * concurrent (db/one-session.ts): the embedded database, in-process or in its thread, and its
 * transactions; never PostgreSQL, where leaving them out would let two audit appends read the
 * same last link.
 */
describe.each([
  ['PGlite', openEmbeddedTestDatabase, true],
  ['PGlite in its thread (the server)', openThreadedTestDatabase, true],
  ['PostgreSQL', () => openPostgresTestDatabase(), false],
] as const)('one session or many, on %s', (_engine, open, alone) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database.close());

  it(`runs transactions ${alone ? 'one at a time' : 'side by side'}, and says so in them too`, async () => {
    expect(runsAlone(database.db)).toBe(alone);
    expect(await database.db.transaction(async (tx) => runsAlone(tx))).toBe(alone);
  });
});
