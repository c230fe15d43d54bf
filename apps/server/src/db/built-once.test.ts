import { eq, sql } from 'drizzle-orm';
import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openEmbeddedTestDatabase,
  openPostgresTestDatabase,
  openThreadedTestDatabase,
} from '../test/test-database';
import { builtOnce, builtSqlOnce, UNNAMED } from './built-once';
import type { Database } from './client';

const probes = pgTable('built_once_probe', {
  id: serial('id').primaryKey(),
  label: text('label').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

const probeByLabel = builtOnce((q) =>
  q
    .select()
    .from(probes)
    .where(eq(probes.label, sql.placeholder('label')))
    .prepare(UNNAMED),
);

const relabel = builtOnce((q) =>
  q
    .update(probes)
    .set({ label: sql`${sql.placeholder('to')}` })
    .where(eq(probes.label, sql.placeholder('from')))
    .returning()
    .prepare(UNNAMED),
);

/** Raw SQL built once: a change and a read of what it changed, its values placeholders. */
const relabelCounted = builtSqlOnce(
  () => sql`with moved as (
      update built_once_probe set label = ${sql.placeholder('to')}::text
      where label = ${sql.placeholder('from')}::text returning id)
    select (select count(*) from moved)::int as moved,
           (select count(*) from built_once_probe where label = ${sql.placeholder('from')}::text)::int as before`,
);

/**
 * A statement built once (db/built-once.ts) runs where it is called: on the database, or inside
 * the transaction it is given, on both drivers. Were it bound to the client it was first built
 * on, a transaction's statement would run outside it (on PostgreSQL, another connection that
 * cannot see the transaction's rows; on the embedded database, a wait behind the transaction).
 */
describe.each([
  ['PGlite', openEmbeddedTestDatabase],
  ['PGlite in its thread (the server)', openThreadedTestDatabase],
  ['PostgreSQL', () => openPostgresTestDatabase()],
] as const)('statements built once, on %s', (_engine, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.db.execute(
      sql`create table built_once_probe (id serial primary key, label text not null, seen_at timestamptz not null default now())`,
    );
    await database.db.insert(probes).values([{ label: 'fridge' }, { label: 'freezer' }]);
  });
  afterAll(() => database.close());

  it('maps rows as drizzle does, with the values of each call', async () => {
    const [fridge] = await probeByLabel(database.db).execute({ label: 'fridge' });
    expect(fridge).toMatchObject({ label: 'fridge' });
    expect(fridge!.seenAt).toBeInstanceOf(Date);
    expect(await probeByLabel(database.db).execute({ label: 'freezer' })).toHaveLength(1);
    expect(await probeByLabel(database.db).execute({ label: 'cold room' })).toEqual([]);
    // Built here first, on the database, so that the transactions below get it bound anew.
    expect(await relabel(database.db).execute({ from: 'cold room', to: 'cold room' })).toEqual([]);
  });

  it('runs inside the transaction it is given, and its change goes with a rollback', async () => {
    const seenInside = await database.db
      .transaction(async (tx) => {
        await tx.insert(probes).values({ label: 'truck' });
        const [moved] = await relabel(tx).execute({ from: 'fridge', to: 'walk-in' });
        const truck = await probeByLabel(tx).execute({ label: 'truck' });
        const walkIn = await probeByLabel(tx).execute({ label: 'walk-in' });
        expect(moved).toMatchObject({ label: 'walk-in' });
        expect(truck).toHaveLength(1);
        expect(walkIn).toHaveLength(1);
        tx.rollback();
        return { truck, walkIn };
      })
      .catch((error: Error) => {
        if (error.message !== 'Rollback') throw error;
        return 'rolled back';
      });
    expect(seenInside).toBe('rolled back');
    // Nothing of the transaction is left: the update ran inside it.
    expect(await probeByLabel(database.db).execute({ label: 'walk-in' })).toEqual([]);
    expect(await probeByLabel(database.db).execute({ label: 'truck' })).toEqual([]);
    expect(await probeByLabel(database.db).execute({ label: 'fridge' })).toHaveLength(1);
  });

  it('sees the transaction’s own rows before they are committed', async () => {
    const inside = await database.db.transaction(async (tx) => {
      await tx.insert(probes).values({ label: 'van' });
      const seen = await probeByLabel(tx).execute({ label: 'van' });
      // On PostgreSQL the database is other connections, which see nothing before COMMIT (the
      // embedded database has one session, which the transaction holds until it ends).
      if (database.kind === 'postgres')
        expect(await probeByLabel(database.db).execute({ label: 'van' })).toEqual([]);
      return seen;
    });
    expect(inside).toHaveLength(1);
    expect(await probeByLabel(database.db).execute({ label: 'van' })).toHaveLength(1);
  });

  it('runs raw SQL built once with each call’s values, inside the transaction it is given', async () => {
    await database.db.insert(probes).values([{ label: 'crate' }, { label: 'crate' }]);
    // The statement's parts see the rows as they were when it began: both crates, then none.
    expect(await relabelCounted(database.db).rows({ from: 'crate', to: 'box' })).toEqual([
      { moved: 2, before: 2 },
    ]);
    expect(await relabelCounted(database.db).rows({ from: 'crate', to: 'box' })).toEqual([
      { moved: 0, before: 0 },
    ]);
    const rolledBack = await database.db
      .transaction(async (tx) => {
        expect(await relabelCounted(tx).rows({ from: 'box', to: 'bin' })).toEqual([{ moved: 2, before: 2 }]);
        tx.rollback();
      })
      .catch((error: Error) => error.message);
    expect(rolledBack).toBe('Rollback');
    expect(await probeByLabel(database.db).execute({ label: 'box' })).toHaveLength(2);
  });
});
