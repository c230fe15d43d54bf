import type { Db } from './client';

/**
 * The name to give drizzle's `.prepare()`: none. A named statement would be prepared on each
 * PostgreSQL connection whatever DATABASE_PREPARED_STATEMENTS says (a pooler in transaction mode
 * cannot keep it); only drizzle's building is saved here, and the database's own preparation
 * stays where it is decided (pg-planned-once.ts, and the embedded thread's second sighting).
 */
export const UNNAMED = '';

/**
 * Statements whose SQL drizzle builds once per database rather than at every call: a drizzle
 * prepared query (`.prepare()`, its values `sql.placeholder`s), kept per database object. Drizzle
 * builds a statement's text again each time it runs, and for a wide row that costs the main
 * thread more than the database spends running it (`npm run bench -- calls`: 139 µs to build the
 * select of a device's 27 columns, 34 µs for the database thread to run a short statement among
 * others). Only for statements whose text never varies, and on the database itself: a prepared
 * query belongs to the session it was built on, so a transaction builds its own statements.
 * `builtOnce(build)` gives the statement of a database, built by `build` at its first use there.
 */
export function builtOnce<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
