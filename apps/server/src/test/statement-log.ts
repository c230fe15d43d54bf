import type { Db } from '../db/client';

interface QueryingClient {
  query: (...args: unknown[]) => Promise<unknown>;
}

/**
 * The statements `work` sends to the database, in order, for tests that pin how many a call runs
 * (STYLE.md, "Queries on the request path": a new N+1 fails there). It listens to the driver's
 * `query` (PGlite's and node-postgres' pool alike), which every statement outside a transaction
 * goes through; list and detail calls run none inside one. Nothing else may use the database
 * meanwhile: tests run no background work unless they start it.
 */
export async function statementsOf<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const client = (db as unknown as { $client: QueryingClient }).$client;
  const statements: string[] = [];
  const original = client.query;
  client.query = function (this: unknown, ...args: unknown[]) {
    const text = args[0];
    statements.push(typeof text === 'string' ? text : String((text as { text?: string })?.text));
    return original.apply(this, args);
  };
  try {
    return { result: await work(), statements };
  } finally {
    client.query = original;
  }
}
