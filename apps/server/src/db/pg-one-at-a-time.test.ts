import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresTestDatabase } from '../test/test-database';
import { type Database, queryRows } from './client';

/**
 * Statements started together on one PostgreSQL connection reach pg one at a time
 * (pg-one-at-a-time.ts): pg queues the others itself only with a deprecation warning, and pg@9
 * removes that queue. Always on PostgreSQL (the local server), whatever the suite runs on.
 */
describe('one statement at a time on each PostgreSQL connection', () => {
  const original = pg.Client.prototype.query;
  /** Statements pg was handed while another one waited in its own queue (what it warns about). */
  let queuedByPg = 0;
  let database: Database;

  beforeAll(async () => {
    // Before the pool's connections exist: each binds the client's query when it connects.
    pg.Client.prototype.query = function (this: pg.Client & { _queryQueue: unknown[] }, ...args: never[]) {
      if (this._queryQueue.length > 0) queuedByPg++;
      return (original as (...a: never[]) => unknown).apply(this, args);
    } as typeof original;
    database = await openPostgresTestDatabase();
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    await database?.close();
  });

  it('sends statements started together in a transaction in order, each after the previous answered', async () => {
    queuedByPg = 0;
    const answers = await database.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table t (n int) on commit drop`);
      // Started together, in order, as the audit trail sends its lock and its append.
      const statements = [
        sql`select pg_advisory_xact_lock(4242)`,
        sql`insert into t values (1)`,
        sql`select count(*)::int as n from t`,
        sql`insert into t values (2)`,
        sql`select count(*)::int as n from t`,
      ].map((statement) => Promise.resolve(tx.execute(statement)));
      return (await Promise.all(statements)) as unknown as { rows: { n: number }[] }[];
    });
    expect(answers[2]!.rows).toEqual([{ n: 1 }]);
    expect(answers[4]!.rows).toEqual([{ n: 2 }]);
    expect(queuedByPg).toBe(0);
  });

  it('goes on after a statement fails, and through the pool as before', async () => {
    queuedByPg = 0;
    const failed = database.db.transaction(async (tx) => {
      await Promise.all([tx.execute(sql`select 1/0`), tx.execute(sql`select 1`)]);
    });
    await expect(failed).rejects.toThrow();
    const together = await Promise.all(
      Array.from({ length: 30 }, (_, i) => queryRows<{ n: number }>(database.db, sql`select ${i}::int as n`)),
    );
    expect(together.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(queuedByPg).toBe(0);
  });
});
