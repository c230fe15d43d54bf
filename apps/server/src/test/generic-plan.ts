import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '../db/client';
import type { SentStatement } from './statement-log';

export function sentOf(statement: SQL): SentStatement {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  return { text, params };
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
