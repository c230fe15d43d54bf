import { entityKind } from 'drizzle-orm';
import type { Queryable } from './client';

/** How drizzle names its embedded driver's session class (drizzle's own `is()` reads the same). */
const EMBEDDED_SESSION = 'PgliteSession';

/**
 * Whether `q` runs on the embedded database, whose one session runs one transaction at a time:
 * PGlite in-process waits for a transaction to end before it runs anything else, and its thread
 * (pglite-proxy.ts) holds every other statement until the transaction in progress ends. Two
 * transactions never interleave there, so a lock taken only to order concurrent transactions (an
 * advisory lock, a row locked and not read) orders nothing and is one statement spent for no
 * effect: callers leave it out. On PostgreSQL sessions run side by side and the lock stays.
 */
export function runsAlone(q: Queryable): boolean {
  const session = q._.session.constructor as unknown as Record<symbol, unknown>;
  return session[entityKind] === EMBEDDED_SESSION;
}
