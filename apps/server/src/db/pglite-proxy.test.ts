import type { Worker } from 'node:worker_threads';
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from './client';
import { PGliteThread } from './pglite-proxy';
import { plannedOnce } from './planned-once';

const probeTable = pgTable('probe', { id: integer('id').primaryKey(), note: text('note') });
const flagTable = pgTable('probe_flags', { id: integer('id').primaryKey(), on: boolean('on') });

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

  it('prepares a statement sent again, and answers it as when it ran unprepared', async () => {
    const db = database.db;
    await db.execute(sql`create table probe_flags (id int primary key, "on" boolean)`);
    const autoPrepared = async () =>
      (
        await queryRows<{ statement: string }>(
          db,
          sql`select statement from pg_prepared_statements where name like 'auto_prepared_%'`,
        )
      ).map((r) => r.statement);
    // Each kind of statement three times: the first two run as sent, the second prepares it.
    for (const id of [100, 101, 102]) {
      await db.insert(probeTable).values({ id, note: `note ${id}` });
      await db.insert(flagTable).values({ id, on: id % 2 === 0 ? true : id === 101 ? null : false });
      const rows = await db.select().from(probeTable).where(eq(probeTable.id, id));
      expect(rows).toEqual([{ id, note: `note ${id}` }]);
      const updated = await db
        .update(probeTable)
        .set({ note: `it's ${id}` })
        .where(eq(probeTable.id, id))
        .returning({ id: probeTable.id, note: probeTable.note });
      expect(updated).toEqual([{ id, note: `it's ${id}` }]);
    }
    const prepared = await autoPrepared();
    expect(prepared.some((s) => s.includes('insert into "probe"'))).toBe(true);
    expect(prepared.some((s) => s.includes('update "probe"'))).toBe(true);
    expect(
      await db
        .select()
        .from(flagTable)
        .where(sql`${flagTable.id} between ${100} and ${102}`)
        .orderBy(flagTable.id),
    ).toEqual([
      { id: 100, on: true },
      { id: 101, on: null },
      { id: 102, on: true },
    ]);
    // A number for a timestamptz is an instant in milliseconds, prepared or not.
    for (let i = 0; i < 3; i++) {
      const [row] = await queryRows<{ at: string }>(
        db,
        sql`select (${Date.UTC(2026, 0, 2, 3, 4, 5)}::timestamptz at time zone 'UTC')::text as at`,
      );
      expect(row!.at).toBe('2026-01-02 03:04:05');
    }
    // A prepared statement's failure keeps its code and constraint.
    const error = await db
      .insert(probeTable)
      .values({ id: 100, note: 'again' })
      .catch((e: unknown) => e);
    expect((error as Error).cause).toMatchObject({ code: '23505', constraint: 'probe_pkey' });
    // Rows changed, as the driver counts them, through a prepared statement.
    for (let i = 0; i < 3; i++) {
      const result = (await db.execute(
        sql`update probe set note = ${'counted'} where id >= ${100} and id <= ${102}`,
      )) as unknown as { affectedRows: number };
      expect(result.affectedRows).toBe(3);
    }
  });
  it('sends the statements that waited for a transaction together, before any sent after it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await held;
    });
    const answered: string[] = [];
    const read = (label: string) =>
      queryRows(database.db, sql`select ${label}::text as label`).then(() => answered.push(label));
    const waiting = [read('a'), read('b'), read('c')];
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await transaction;
    const after = read('d');
    await Promise.all([...waiting, after]);
    // Released one answer at a time, the later ones fell behind statements sent meanwhile.
    expect(answered).toEqual(['a', 'b', 'c', 'd']);
  });
  it('fails a transaction whose COMMIT rolled back, as PGlite does in the process', async () => {
    const db = database.db;
    await db.execute(sql`create table probe_swallowed (id int primary key)`);
    await db.execute(sql`insert into probe_swallowed values (1)`);
    // A failure swallowed inside the transaction: PostgreSQL answers its COMMIT with ROLLBACK.
    const outcome = await db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into probe_swallowed values (2)`);
        await tx.execute(sql`insert into probe_swallowed values (1)`).catch(() => undefined);
      })
      .then(
        () => 'committed',
        (error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code,
      );
    expect(outcome).toBe('25P02');
    const ids = await queryRows<{ id: number }>(db, sql`select id from probe_swallowed order by id`);
    expect(ids.map((r) => r.id)).toEqual([1]);
  });
  it('answers statements sent together each as if it came alone, a failure among them included', async () => {
    const db = database.db;
    await db.execute(sql`create table probe_together (id int primary key)`);
    const insert = (id: number) =>
      db.execute(sql`insert into probe_together values (${id}::int)`).then(
        () => 'stored',
        (error: { cause?: { code?: string } }) => error.cause?.code,
      );
    // Twice each, so the second round runs on the statement the thread prepared meanwhile.
    for (const round of [0, 10]) {
      await insert(round + 1);
      // Sent without waiting: the thread runs them in one call, each with its own Sync.
      expect(await Promise.all([insert(round + 2), insert(round + 1), insert(round + 3)])).toEqual([
        'stored',
        '23505',
        'stored',
      ]);
    }
    // Inside a transaction, a failure aborts what follows, as it would one statement at a time.
    const inside = await db
      .transaction(async (tx) => {
        const statements = [4, 1, 5].map((id) =>
          tx.execute(sql`insert into probe_together values (${id}::int)`).then(
            () => 'stored',
            (error: { cause?: { code?: string } }) => error.cause?.code,
          ),
        );
        const codes = await Promise.all(statements);
        throw Object.assign(new Error('rolled back'), { codes });
      })
      .catch((error: { codes: string[] }) => error.codes);
    expect(inside).toEqual(['stored', '23505', '25P02']);
    const ids = await queryRows<{ id: number }>(db, sql`select id from probe_together order by id`);
    expect(ids.map((r) => r.id)).toEqual([1, 2, 3, 11, 12, 13]);
  });
  it("reports a failing planned-once statement's own error, and leaves the plan mode as it was", async () => {
    const db = database.db;
    const insert = (id: number) => plannedOnce(sql`insert into probe values (${id}::int, ${'mode'})`);
    const planMode = async () =>
      (await queryRows<{ plan_cache_mode: string }>(db, sql`show plan_cache_mode`))[0]!.plan_cache_mode;
    await queryRows(db, insert(40));
    // Outside a transaction: the duplicate key, then the setting is reset.
    await expect(queryRows(db, insert(40))).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(await planMode()).toBe('auto');
    // Inside one: the same error (not the aborted transaction's), and the rollback undoes the setting.
    await expect(db.transaction(async (tx) => queryRows(tx, insert(40)))).rejects.toMatchObject({
      cause: { code: '23505' },
    });
    expect(await planMode()).toBe('auto');
    // A statement without rows answers no rows; one with rows answers them typed.
    const [row] = await queryRows<{ id: number; note: string }>(
      db,
      plannedOnce(sql`select id, note from probe where id = ${40}::int`),
    );
    expect(row).toEqual({ id: 40, note: 'mode' });
  });

  it('runs planned-once statements sent together under one plan setting, and no other statement', async () => {
    const db = database.db;
    const mode = (marked: boolean) => {
      const read = sql`select current_setting('plan_cache_mode') as mode, ${marked}::boolean as marked`;
      return queryRows<{ mode: string }>(db, marked ? plannedOnce(read) : read).then(
        ([row]) => row!.mode,
        (error: { cause?: { code?: string } }) => error.cause?.code,
      );
    };
    const insert = (id: number) =>
      queryRows(db, plannedOnce(sql`insert into probe values (${id}::int, ${'run'})`)).then(
        () => 'stored',
        (error: { cause?: { code?: string } }) => error.cause?.code,
      );
    // Each seen twice first, so that all are prepared and the next round goes into the database in
    // one call (a statement is prepared at its second sighting, a planned-once one at its first).
    await insert(50);
    for (const _ of [1, 2]) await Promise.all([mode(true), mode(false)]);
    const answers = await Promise.all([
      mode(true),
      insert(51),
      insert(50),
      mode(true),
      mode(false),
      mode(true),
    ]);
    expect(answers).toEqual([
      'force_generic_plan',
      'stored',
      '23505',
      'force_generic_plan',
      'auto',
      'force_generic_plan',
    ]);
    expect(await mode(false)).toBe('auto');
    // In a transaction, a failure among them aborts the rest, and the rollback leaves the mode as it was.
    const inside = await db
      .transaction(async (tx) => {
        const run = [52, 50, 53].map((id) =>
          queryRows(tx, plannedOnce(sql`insert into probe values (${id}::int, ${'run'})`)).then(
            () => 'stored',
            (error: { cause?: { code?: string } }) => error.cause?.code,
          ),
        );
        throw Object.assign(new Error('rolled back'), { codes: await Promise.all(run) });
      })
      .catch((error: { codes: string[] }) => error.codes);
    expect(inside).toEqual(['stored', '23505', '25P02']);
    expect(await mode(false)).toBe('auto');
    const ids = await queryRows<{ id: number }>(db, sql`select id from probe where note = 'run' order by id`);
    expect(ids.map((r) => r.id)).toEqual([50, 51]);
  });
});

describe('transactions through the thread', () => {
  it('hands the database to the next transaction as a COMMIT is sent, not when it has answered', async () => {
    const thread = await PGliteThread.start();
    try {
      // What crosses to the thread and back, in order: the statements sent and the answers heard.
      const seen: string[] = [];
      const worker = (thread as unknown as { worker: Worker }).worker;
      const sql = new Map<number, string>();
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: { id: number; sql?: string }) => {
        if (message.sql) {
          sql.set(message.id, message.sql);
          seen.push(`sent ${message.sql}`);
        }
        post(message);
      };
      worker.prependListener('message', (message: { id?: number }) => {
        const text = message.id === undefined ? undefined : sql.get(message.id);
        if (text) seen.push(`answered ${text}`);
      });
      const first = thread.transaction(async (tx) => {
        await tx.query('select 1');
      });
      const second = thread.transaction(async (tx) => {
        await tx.query('select 2');
      });
      await Promise.all([first, second]);
      const at = (event: string, from = 0) => seen.indexOf(event, from);
      // The second BEGIN follows the first COMMIT at once: the thread runs them in order, so
      // nothing of the second transaction can run before the first has ended.
      const secondBegin = at('sent BEGIN', at('sent BEGIN') + 1);
      expect(secondBegin).toBeGreaterThan(at('sent COMMIT'));
      expect(secondBegin).toBeLessThan(at('answered COMMIT'));
      expect(seen.filter((event) => event === 'answered COMMIT')).toHaveLength(2);
    } finally {
      await thread.close();
    }
  }, 60_000);
});
