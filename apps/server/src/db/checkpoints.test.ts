import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openEmbeddedTestDatabase,
  openPostgresTestDatabase,
  openThreadedTestDatabase,
} from '../test/test-database';
import { type CheckpointLimits, checkpointIfDue } from './checkpoints';
import { type Database, type Db, queryRows } from './client';

const MB = 1024 * 1024;
/** Limits small enough for a test to cross: 2 MB of log, or 1 MB and a minute. */
const SMALL: CheckpointLimits = { walBytes: 2 * MB, everyMs: 60_000, minWalBytes: MB };

async function lastCheckpoint(db: Db) {
  const [row] = await queryRows<{ redo: string; since: string; at: Date | string }>(
    db,
    sql`select redo_lsn::text as redo, checkpoint_time as at,
               pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text as since
        from pg_control_checkpoint()`,
  );
  return { redo: row!.redo, walSince: Number(row!.since), at: new Date(row!.at).getTime() };
}

/** Writes about `mb` megabytes of log: rows of 1 KB, committed. */
async function writeLog(db: Db, mb: number) {
  await db.execute(sql`insert into checkpoint_scratch (body)
                       select repeat(md5(g::text), 32) from generate_series(1, ${mb * 1000}::int) g`);
}

describe.each([
  ['PGlite', openEmbeddedTestDatabase],
  ['PGlite in its thread (the server)', openThreadedTestDatabase],
] as const)('checkpoints of the embedded database, %s', (_engine, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`create table checkpoint_scratch (id serial primary key, body text)`);
  });
  afterAll(() => database.close());

  it('checkpoints once the log since the last checkpoint passes its limit, and not again until it does', async () => {
    await checkpointIfDue(database.db, { ...SMALL, walBytes: 0, minWalBytes: 0 });
    const before = await lastCheckpoint(database.db);
    await writeLog(database.db, 1);
    // 1 MB written, a minute not passed since: not due.
    expect(await checkpointIfDue(database.db, SMALL, before.at + 1_000)).toBe(false);
    expect((await lastCheckpoint(database.db)).redo).toBe(before.redo);

    await writeLog(database.db, 2);
    expect((await lastCheckpoint(database.db)).walSince).toBeGreaterThanOrEqual(SMALL.walBytes);
    expect(await checkpointIfDue(database.db, SMALL, before.at + 1_000)).toBe(true);
    const after = await lastCheckpoint(database.db);
    expect(after.redo).not.toBe(before.redo);
    expect(after.walSince).toBeLessThan(SMALL.minWalBytes);
    expect(await checkpointIfDue(database.db, SMALL, after.at + 1_000)).toBe(false);
  });

  it('checkpoints after its interval when enough was written, and leaves an idle database alone', async () => {
    await checkpointIfDue(database.db, { ...SMALL, walBytes: 0, minWalBytes: 0 });
    const idle = await lastCheckpoint(database.db);
    // Nothing written: not even a day later.
    expect(await checkpointIfDue(database.db, SMALL, idle.at + 86_400_000)).toBe(false);

    await writeLog(database.db, 1.2);
    expect(await checkpointIfDue(database.db, SMALL, idle.at + SMALL.everyMs - 1_000)).toBe(false);
    expect(await checkpointIfDue(database.db, SMALL, idle.at + SMALL.everyMs)).toBe(true);
    expect((await lastCheckpoint(database.db)).redo).not.toBe(idle.redo);
  });

  it('keeps the data it checkpointed', async () => {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from checkpoint_scratch`,
    );
    expect(row!.n).toBe(1_000 + 2_000 + 1_200);
  });
});

describe('checkpoints on PostgreSQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPostgresTestDatabase();
    await database.db.execute(sql`create table checkpoint_scratch (id serial primary key, body text)`);
  });
  afterAll(() => database.close());

  it('are left to the server’s checkpointer', async () => {
    await writeLog(database.db, 3);
    expect(await checkpointIfDue(database.db, { walBytes: 0, everyMs: 0, minWalBytes: 0 })).toBe(false);
  });
});
