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
  const undo = listenTo(client, (text) => statements.push(text));
  try {
    return { result: await work(), statements };
  } finally {
    undo();
  }
}

/** A statement's text and parameters as the driver received them. */
export interface SentStatement {
  text: string;
  params: unknown[];
}

/**
 * The statements `work` sends outside transactions, as `statementsOf` finds them, with their
 * parameters (test/generic-plan.ts explains their plans).
 */
export async function sentStatementsOf(db: Db, work: () => Promise<unknown>): Promise<SentStatement[]> {
  const client = (db as unknown as { $client: QueryingClient }).$client;
  const sent: SentStatement[] = [];
  const undo = listenTo(client, (text, params) => sent.push({ text, params }));
  try {
    await work();
  } finally {
    undo();
  }
  return sent;
}

/** Tells `noted` of every statement `target.query` sends; gives the undo. */
function listenTo(target: QueryingClient, noted: (text: string, params: unknown[]) => void): () => void {
  const original = target.query;
  target.query = function (this: unknown, ...args: unknown[]) {
    // PGlite takes (text, params); node-postgres, as drizzle calls it, a config with both.
    const [first, second] = args as [string | { text?: string; values?: unknown[] }, unknown];
    if (typeof first === 'string') noted(first, Array.isArray(second) ? second : []);
    else noted(String(first?.text), first?.values ?? (Array.isArray(second) ? second : []));
    return original.apply(this, args);
  };
  return () => {
    target.query = original;
  };
}

interface TransactionalClient extends QueryingClient {
  /** The embedded client: the callback gets a transaction with its own `query`. */
  transaction?: (callback: (tx: QueryingClient) => Promise<unknown>) => Promise<unknown>;
  /** node-postgres' pool: a transaction runs on a connection drizzle takes with `connect()`. */
  connect?: (...args: unknown[]) => Promise<QueryingClient> | undefined;
}

/**
 * `statementsOf`, and the statements sent inside transactions too (BEGIN and COMMIT included),
 * for tests that pin what a write sends. On the embedded database each transaction's `query` is
 * listened to, and its BEGIN and COMMIT (or ROLLBACK) written where PGlite sends them itself; on PostgreSQL each connection drizzle takes for a transaction (`pool.connect()`
 * without a callback: the pool's own `query` takes one with a callback, and is listened to as in
 * `statementsOf`).
 */
export async function everyStatementOf<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const client = (db as unknown as { $client: TransactionalClient }).$client;
  const statements: string[] = [];
  const listened = (target: QueryingClient) => listenTo(target, (text) => statements.push(text));
  const restore: (() => void)[] = [listened(client)];
  const { transaction, connect } = client;
  if (transaction) {
    client.transaction = (callback) =>
      transaction.call(client, (tx) => {
        // PGlite sends its own BEGIN and COMMIT, not through `query`: written here as PostgreSQL's
        // are seen, so that a test counts a transaction on either database.
        statements.push('BEGIN');
        const undo = listened(tx);
        return callback(tx)
          .then(
            (value) => {
              statements.push('COMMIT');
              return value;
            },
            (error: unknown) => {
              statements.push('ROLLBACK');
              throw error;
            },
          )
          .finally(undo);
      });
    restore.push(() => {
      client.transaction = transaction;
    });
  }
  if (connect) {
    client.connect = function (this: unknown, ...args: unknown[]) {
      const connecting = connect.apply(this, args);
      if (args.length > 0 || !connecting) return connecting;
      return connecting.then((connection) => {
        // Listened to until it goes back to the pool, where the pool's own `query` (listened to
        // already) may use it next.
        const undo = listened(connection);
        const pooled = connection as QueryingClient & { release: (...args: unknown[]) => unknown };
        const release = pooled.release;
        pooled.release = function (this: unknown, ...args: unknown[]) {
          undo();
          pooled.release = release;
          return release.apply(this, args);
        };
        return connection;
      });
    };
    restore.push(() => {
      client.connect = connect;
    });
  }
  try {
    return { result: await work(), statements };
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
