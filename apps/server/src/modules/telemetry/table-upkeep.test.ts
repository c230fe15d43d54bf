import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, queryRows } from '../../db/client';
import {
  openEmbeddedTestDatabase,
  openPostgresTestDatabase,
  openThreadedTestDatabase,
} from '../../test/test-database';
import { freezeAgedTables } from './table-upkeep';

/** Uses `n` transaction ids in one statement: a subtransaction per write, each given an id of its own. */
async function useTransactionIds(db: Db, n: number) {
  await db.execute(
    sql.raw(`do $$ begin
      for i in 1..${n} loop
        begin insert into upkeep_burn values (i); exception when others then null; end;
      end loop;
    end $$`),
  );
}

async function ageOf(db: Db, table: string) {
  const [row] = await queryRows<{ age: number }>(
    db,
    sql`select age(relfrozenxid) as age from pg_class where oid = ${table}::regclass`,
  );
  return Number(row!.age);
}

async function databaseAge(db: Db) {
  const [row] = await queryRows<{ age: number }>(
    db,
    sql`select age(datfrozenxid) as age from pg_database where datname = current_database()`,
  );
  return Number(row!.age);
}

describe.each([
  ['PGlite', openEmbeddedTestDatabase],
  ['PGlite in its thread (the server)', openThreadedTestDatabase],
] as const)('old rows frozen on the embedded database, %s', (_engine, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`create table upkeep_kept (id int primary key, note text)`);
    await database.db.execute(sql`create table upkeep_burn (i int)`);
    await database.db.execute(
      sql`insert into upkeep_kept select g, 'reading ' || g from generate_series(1, 500) g`,
    );
  });
  afterAll(() => database.close());

  it('freezes every table older than the limit, so the database’s oldest id is recent, and keeps the rows', async () => {
    await useTransactionIds(database.db, 3_000);
    expect(await ageOf(database.db, 'upkeep_kept')).toBeGreaterThan(2_000);
    expect(await databaseAge(database.db)).toBeGreaterThan(2_000);

    const frozen = await freezeAgedTables(database.db, 2_000);
    expect(frozen).toContain('upkeep_kept');
    // The catalogs too: the database's age is its oldest table's.
    expect(frozen).toContain('pg_class');
    expect(await ageOf(database.db, 'upkeep_kept')).toBeLessThan(100);
    expect(await databaseAge(database.db)).toBeLessThan(2_000);
    const [kept] = await queryRows<{ n: number; last: string }>(
      database.db,
      sql`select count(*)::int as n, max(note) filter (where id = 500) as last from upkeep_kept`,
    );
    expect(kept).toEqual({ n: 500, last: 'reading 500' });
  });

  it('leaves tables younger than the limit alone', async () => {
    await useTransactionIds(database.db, 500);
    expect(await freezeAgedTables(database.db, 2_000)).toEqual([]);
  });
});

describe('old rows on PostgreSQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPostgresTestDatabase();
    await database.db.execute(sql`create table upkeep_kept (id int primary key, note text)`);
    await database.db.execute(sql`create table upkeep_burn (i int)`);
  });
  afterAll(() => database.close());

  it('are left to its autovacuum where it runs, and frozen here where it is off', async () => {
    await useTransactionIds(database.db, 3_000);
    const [server] = await queryRows<{ autovacuum: string }>(
      database.db,
      sql`select current_setting('autovacuum') as autovacuum`,
    );
    const frozen = await freezeAgedTables(database.db, 2_000);
    if (server!.autovacuum === 'on') expect(frozen).toEqual([]);
    else {
      expect(frozen).toContain('upkeep_kept');
      expect(await ageOf(database.db, 'upkeep_kept')).toBeLessThan(2_000);
    }
  });
});
