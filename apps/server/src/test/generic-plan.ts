import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '../db/client';

/** A statement's text and parameters as the driver receives them. */
export interface SentStatement {
  text: string;
  params: unknown[];
}

export function sentOf(statement: SQL): SentStatement {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  return { text, params };
}

/** The statements `work` sends outside transactions, with their parameters (statement-log.ts keeps only texts). */
export async function sentBy(db: Db, work: () => Promise<unknown>): Promise<SentStatement[]> {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
  const sent: SentStatement[] = [];
  const original = client.query;
  client.query = function (this: unknown, ...args: unknown[]) {
    // PGlite takes (text, params); node-postgres, as drizzle calls it, a config with both.
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    sent.push(
      typeof first === 'string'
        ? { text: first, params: second ?? [] }
        : { text: first.text, params: first.values ?? second ?? [] },
    );
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    client.query = original;
  }
  return sent;
}

const literal = (value: unknown) =>
  value === null || value === undefined
    ? 'null'
    : typeof value === 'string'
      ? `'${value.replaceAll("'", "''")}'`
      : String(value);

/**
 * The plan PostgreSQL makes of a statement for any values, as the embedded database's thread runs
 * planned-once statements (pglite-thread.mjs): prepared under `force_generic_plan`, then explained
 * with the statement's own values. One line of the plan per line.
 */
export async function genericPlanOf(db: Db, { text, params }: SentStatement): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare generic_plan_of as ${text}`));
    const rows = await queryRows<{ 'QUERY PLAN': string }>(
      tx,
      sql.raw(`explain execute generic_plan_of(${params.map(literal).join(', ')})`),
    );
    await tx.execute(sql`deallocate generic_plan_of`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
