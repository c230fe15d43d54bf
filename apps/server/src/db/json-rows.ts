import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * Whole table rows carried inside one statement's JSON, for statements that read several tables
 * at once (one round trip instead of one per table; on the embedded database each round trip
 * waits for the database thread). `jsonRowOf` builds the row as a JSON object keyed like the
 * table's TypeScript fields (all of them, or the `fields` named), `decodeJsonRow` turns a whole row
 * back into what a drizzle select returns.
 */
export function jsonRowOf<T extends PgTable>(
  table: T,
  alias: string,
  fields?: readonly (keyof T['_']['columns'] & string)[],
): SQL {
  const columns = getTableColumns(table);
  // Only the fields asked for, when a caller needs a few columns of a wide table.
  const chosen = fields ? fields.map((key) => [key, columns[key]!] as const) : Object.entries(columns);
  const pairs = chosen.map(
    // Keys are the table's own field names (letters only), written into the text rather than bound
    // as parameters, so the statement's text and its parameters stay short.
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${sql.identifier(alias)}.${sql.identifier(column.name)}`,
  );
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

export function decodeJsonRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[key];
    // Each column maps its driver value as a select would (timestamps to Date, bigint to number, ...).
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
