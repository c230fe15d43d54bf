import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from './client';
import { plannedOnce } from './planned-once';

/**
 * The server's embedded database runs in a thread of its own (pglite-proxy.ts); these tests drive
 * that thread through drizzle as the server does: migrations, values of every kind, transactions,
 * errors and isolation.
 */
describe('embedded database in its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ thread: true });
    await database.db.execute(sql`create table probe (id int primary key, note text)`);
  }, 60_000);
  afterAll(async () => {
    await database.close();
  });

  it('applies the migrations and returns values as the in-process driver does', async () => {
    const [row] = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select (select count(*)::int from users) as users, timestamptz '2026-01-02 03:04:05+00' as at,
                 12345678901::bigint as big, array[1.5, 2.5]::real[] as reals, '{"a":[1]}'::jsonb as doc`,
    );
    expect(row).toEqual({
      users: 0,
      at: '2026-01-02 03:04:05+00',
      big: 12345678901,
      reals: [1.5, 2.5],
      doc: { a: [1] },
    });
  });

  it('commits a transaction, and rolls one back when it throws', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (1, 'kept')`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into probe values (2, 'lost')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const rows = await queryRows<{ id: number }>(database.db, sql`select id from probe order by id`);
    expect(rows).toEqual([{ id: 1 }]);
  });

  it('keeps a PostgreSQL error its code and constraint across the thread', async () => {
    const error = await database.db
      .execute(sql`insert into probe values (1, 'again')`)
      .catch((e: unknown) => e);
    // Drizzle wraps the driver's error; the PostgreSQL one is its cause.
    expect((error as Error).cause).toMatchObject({ code: '23505', constraint: 'probe_pkey' });
  });

  it('lets no statement from outside into a transaction while it runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (10, 'inside')`);
      await held;
      order.push('transaction ends');
      await tx.execute(sql`delete from probe where id = 10`);
    });
    const outside = queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from probe where id = 10`,
    ).then((rows) => {
      order.push('outside reads');
      return rows[0]!.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    // The outside read waited for the commit, so it never saw the transaction's own row.
    expect(await outside).toBe(0);
    expect(order).toEqual(['transaction ends', 'outside reads']);
  });

  it('runs a planned-once statement as a prepared one, with every kind of value, in and out of transactions', async () => {
    const probe = (id: number | null, note: string | null, tags: string) =>
      plannedOnce(sql`select ${id}::int as id, ${note}::text as note, ${tags}::text[] as tags,
                             (select count(*)::int from pg_prepared_statements where statement like '%planned-once%') as prepared`);
    const [first] = await queryRows<Record<string, unknown>>(database.db, probe(1, "it's", '{a,b}'));
    expect(first).toEqual({ id: 1, note: "it's", tags: ['a', 'b'], prepared: 1 });
    // The same text again: executed, not prepared a second time; NULLs and quotes survive the literals.
    const [again] = await queryRows<Record<string, unknown>>(
      database.db,
      probe(null, "'; drop table probe; --", '{}'),
    );
    expect(again).toEqual({ id: null, note: "'; drop table probe; --", tags: [], prepared: 1 });
    // A prepared statement outlives a rolled-back transaction, and works inside the next one.
    await expect(
      database.db.transaction(async (tx) => {
        await queryRows(tx, plannedOnce(sql`insert into probe values (${20}, ${'gone'})`));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await database.db.transaction(async (tx) => {
      await queryRows(tx, plannedOnce(sql`insert into probe values (${21}, ${'kept'})`));
    });
    const notes = await queryRows<{ id: number; note: string }>(
      database.db,
      sql`select id, note from probe where id in (20, 21) order by id`,
    );
    expect(notes).toEqual([{ id: 21, note: 'kept' }]);
    // A failing execution is an ordinary PostgreSQL error with its code.
    await expect(
      queryRows(database.db, plannedOnce(sql`insert into probe values (${21}, ${'twice'})`)),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
  });
});
