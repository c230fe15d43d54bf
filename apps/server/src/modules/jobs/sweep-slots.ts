import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';

/**
 * Answers whether this instance runs a periodic sweep now: `true` for the first instance to tick
 * in the sweep's current period of `everyMs`, `false` for every other tick of that period in any
 * instance. Passed to the sweeps' `start...` functions by run-server.ts; a sweep without a gate
 * runs at every tick of every instance (tests, and one embedded instance).
 */
export type SweepGate = (sweep: string, everyMs: number) => Promise<boolean>;

/**
 * Claims the current period of `sweep` for `owner` in one statement: the period number is counted
 * on the database's clock, and the row moves forward only from an older period, so of several
 * instances ticking in one period exactly one gets `true`.
 */
export async function claimSweepSlot(
  db: Queryable,
  sweep: string,
  owner: string,
  everyMs: number,
): Promise<boolean> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`insert into sweep_runs (name, slot, owner, ran_at)
        values (${sweep}, floor(extract(epoch from now()) * 1000 / ${everyMs})::bigint, ${owner}, now())
        on conflict (name) do update set slot = excluded.slot, owner = excluded.owner, ran_at = excluded.ran_at
          where sweep_runs.slot < excluded.slot
        returning name`,
  );
  return rows.length > 0;
}

/** The gate of one instance (`owner`, e.g. its job queue's name); a database error reads as "not now". */
export function sweepGate(db: Queryable, owner: string): SweepGate {
  return (sweep, everyMs) => claimSweepSlot(db, sweep, owner, everyMs).catch(() => false);
}
