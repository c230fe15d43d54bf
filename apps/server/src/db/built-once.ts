import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from './client';

/**
 * The name to give drizzle's `.prepare()`: none. A named statement would be prepared on each
 * PostgreSQL connection whatever DATABASE_PREPARED_STATEMENTS says (a pooler in transaction mode
 * cannot keep it); only drizzle's building is saved here, and the database's own preparation
 * stays where it is decided (pg-planned-once.ts, and the embedded thread's second sighting).
 */
export const UNNAMED = '';

/**
 * An update's `set` for a statement built once: each of `columns` from the placeholder of its
 * name. A placeholder given as the value itself (not inside `sql`) is encoded as drizzle encodes
 * the column (jsonb as JSON, arrays as array literals, instants as text), as a plain value is;
 * inside `sql` it would be sent as it is, which node-postgres refuses for jsonb. Typed loosely
 * (`never`): drizzle's `set` does not admit placeholders in its types, only at run time.
 */
export function placeholdersFor(columns: Record<string, unknown>): never {
  return Object.fromEntries(Object.keys(columns).map((column) => [column, sql.placeholder(column)])) as never;
}

/** What a drizzle session and its prepared queries hold of the driver: the client they send on. */
interface DriverBound {
  client?: unknown;
}

/**
 * Statements whose SQL drizzle builds once rather than at every call: a drizzle prepared query
 * (`.prepare(UNNAMED)`, its values `sql.placeholder`s). Drizzle builds a statement's text again
 * each time it runs, and for a wide row that costs the main thread more than the database spends
 * running it (`npm run bench -- calls`: 139 µs to build the select of a device's 27 columns, 159 µs
 * for an update returning its row, 34 µs for the database thread to run a short statement among
 * others). Only for statements whose text never varies.
 *
 * A prepared query is bound to the client of the session it was built on, so it is built once
 * per driver (the embedded database's and node-postgres's differ in how they send and map) and
 * then bound, at each call, to the client of the database or transaction it runs on: the
 * statement of a transaction runs inside that transaction. `builtOnce(build)` gives the statement
 * for `q`, built by `build` at the first use with its driver.
 */
export function builtOnce<Q extends object>(build: (q: Queryable) => Q): (q: Queryable) => Q {
  const built = new Map<unknown, Q>();
  return (q) => {
    const session = q._.session as unknown as DriverBound;
    const driver = session.constructor;
    const statement = built.get(driver);
    if (statement === undefined) {
      const first = build(q);
      // Drizzle keeps the client on the session and on each prepared query (both drivers, since
      // 0.2x); if a release stops doing so, a statement would silently run outside its
      // transaction, so this says so at once instead.
      if (!('client' in first) || session.client === undefined)
        throw new Error('builtOnce: drizzle no longer keeps a client on its sessions; see db/built-once.ts');
      built.set(driver, first);
      return first;
    }
    // The built query's own fields stay shared (its SQL, values' slots, row mapping); only the
    // client is this call's. `execute` reads `this.client`, so the bound copy sends on it.
    return Object.create(statement, { client: { value: session.client } }) as Q;
  };
}

/** A statement of raw SQL built once, run with the values of its placeholders. */
export interface BuiltSql {
  /** The statement's rows, as the driver gives them (no mapping: raw SQL has no columns to map by). */
  rows<T>(values: Record<string, unknown>): Promise<T[]>;
}

interface DialectSession {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: undefined,
    arrayMode: false,
  ): { execute(values: Record<string, unknown>): Promise<unknown> };
}

/**
 * Raw SQL (`sql\`...\``) whose text drizzle turns into the driver's text and parameters once per
 * driver instead of at every call, as `builtOnce` does for the query builder's statements: for
 * statements too wide or too shaped for the builder (a change, its audit entry and its answer in
 * one statement, modules/audit `auditedChangeSql`). Its values are `sql.placeholder`s; a
 * placeholder inside `sql` is sent as it is, so the SQL casts it (`::jsonb` of JSON text).
 */
export function builtSqlOnce(build: (q: Queryable) => SQL): (q: Queryable) => BuiltSql {
  const built = new Map<unknown, { sql: string; params: unknown[] }>();
  return (q) => {
    const session = q._.session as unknown as DialectSession;
    const driver = session.constructor;
    let query = built.get(driver);
    if (query === undefined) {
      query = session.dialect.sqlToQuery(build(q));
      built.set(driver, query);
    }
    const statement = query;
    return { rows: (values) => rowsOfBuilt(session, statement, values) };
  };
}

/**
 * Raw SQL with placeholders, built at this call and run with `values`: the same statement as one
 * of `builtSqlOnce` where its text varies from call to call (a department member's scope).
 */
export function sqlWithPlaceholders(q: Queryable, query: SQL): BuiltSql {
  const session = q._.session as unknown as DialectSession;
  const statement = session.dialect.sqlToQuery(query);
  return { rows: (values) => rowsOfBuilt(session, statement, values) };
}

async function rowsOfBuilt<T>(
  session: DialectSession,
  statement: { sql: string; params: unknown[] },
  values: Record<string, unknown>,
): Promise<T[]> {
  // Both drivers' prepared queries without fields answer the driver's result, `{ rows }`.
  const result = (await session.prepareQuery(statement, undefined, undefined, false).execute(values)) as {
    rows: T[];
  };
  return result.rows;
}
