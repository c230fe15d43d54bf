import { type SQL, sql } from 'drizzle-orm';

/**
 * Marks a statement that runs on every batch or alarm (ingest's write, the alarm engine's reads
 * and writes) to be planned once per session. The embedded database's thread
 * (pglite-thread.mjs, which looks for this exact comment) prepares it at its first use and
 * executes it after; planning such a statement took as long as running it. Elsewhere the mark
 * is a comment. Only for statements whose text does not change from call to call: values go in
 * parameters.
 */
export function plannedOnce(query: SQL): SQL {
  return sql`${sql.raw(`${PLANNED_ONCE_MARK} `)}${query}`;
}

/** The comment that starts a planned-once statement's text. */
export const PLANNED_ONCE_MARK = '/*planned-once*/';
