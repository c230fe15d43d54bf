import type pg from 'pg';
import { type DatabaseChanges, readsOnly } from './database-changes';

/** The NOTIFY channel on which instances announce that they changed the database. */
export const CHANGES_CHANNEL = 'coldchain_changes';

type Callback = (error: unknown, result: unknown) => void;

/**
 * Counts the changes made through `pool` into `changes`: every statement that is not a plain
 * `select` (a transaction's `commit` included), counted when it has finished, before its caller
 * hears back, as the embedded database's client does (database-changes.ts). Statements reach a
 * pooled connection's `query` either with a callback (the pool's own `query`, which drizzle uses
 * outside transactions) or for a promise (drizzle's transactions). A submittable (a cursor, a
 * COPY stream) is passed through uncounted: the server sends none.
 */
export function countPoolChanges(pool: pg.Pool, changes: DatabaseChanges): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      if (typeof text === 'string' && readsOnly(text)) return query(config, ...rest);
      const last = rest.at(-1);
      if (typeof last === 'function') {
        const done = last as Callback;
        const counted: Callback = (error, result) => {
          changes.noteChange();
          done(error, result);
        };
        return query(config, ...rest.slice(0, -1), counted);
      }
      const result = query(config, ...rest);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (value) => {
          changes.noteChange();
          return value;
        },
        (error: unknown) => {
          changes.noteChange();
          throw error;
        },
      );
    };
  });
}
