import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresTestDatabase } from '../test/test-database';
import { openDatabase, queryRows } from './client';
import { plannedOnce } from './planned-once';

interface Prepared {
  statement: string;
  generic_plans: string;
  custom_plans: string;
}

/** Runs a marked statement three times on one connection and lists what that connection prepared. */
async function runMarkedThrice(database: Awaited<ReturnType<typeof openDatabase>>, marker: string) {
  return database.db.transaction(async (tx) => {
    for (let i = 0; i < 3; i++) {
      const rows = await queryRows<{ n: number }>(
        tx,
        plannedOnce(sql`select ${i}::int + 1 as n, ${sql.raw(`'${marker}'`)}::text as marker`),
      );
      expect(rows[0]!.n).toBe(i + 1);
    }
    return queryRows<Prepared>(
      tx,
      sql`select statement, generic_plans, custom_plans from pg_prepared_statements
          where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`,
    );
  });
}

describe('planned-once statements on PostgreSQL', () => {
  const opened: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const database of opened) await database.close();
  });

  it('are prepared once per connection and then only executed', async () => {
    const database = await openPostgresTestDatabase();
    opened.push(database);
    const prepared = await runMarkedThrice(database, 'prepared-marker');
    // One prepared statement served all three runs (each run counts one plan, generic or its own).
    expect(prepared).toHaveLength(1);
    expect(Number(prepared[0]!.generic_plans) + Number(prepared[0]!.custom_plans)).toBe(3);
  });

  it('are sent unnamed with DATABASE_PREPARED_STATEMENTS off', async () => {
    const database = await openPostgresTestDatabase();
    opened.push(database);
    const unprepared = await openDatabase({ url: database.url, preparedStatements: false });
    opened.unshift(unprepared);
    expect(await runMarkedThrice(unprepared, 'unnamed-marker')).toEqual([]);
  });
});
