import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './client';
import { runsAlone } from './one-session';

/**
 * When the embedded database writes a checkpoint: after this much write-ahead log since the last
 * one, or after `everyMs` with at least `minWalBytes` written (PostgreSQL's own `max_wal_size`
 * and `checkpoint_timeout`, scaled to a database that replays its log on every start after a
 * crash; docs/performance.md, "The embedded database's write-ahead log").
 */
export interface CheckpointLimits {
  walBytes: number;
  everyMs: number;
  minWalBytes: number;
}

export const CHECKPOINT_LIMITS: CheckpointLimits = {
  // About half a second of replay after a crash here, and at most a few seconds of a fleet's log.
  walBytes: 128 * 1024 * 1024,
  everyMs: 5 * 60_000,
  // An idle database is left alone: a checkpoint makes the next change of every page log it whole.
  minWalBytes: 1024 * 1024,
};

/**
 * Writes a checkpoint on the embedded database when one is due, and says whether it did.
 *
 * PGlite runs PostgreSQL in single-user mode, which has no checkpointer process: the server
 * checkpoints only when it shuts down cleanly. Until then nothing recycles the write-ahead log,
 * so it grew without bound (a fleet of 19 000 devices wrote about 1 MB a second, 90 GB a day),
 * every new 16 MB segment was zero-filled while a COMMIT waited (50-60 ms every 15 s), and a
 * start after a crash would replay everything since the last clean stop. A checkpoint writes the
 * changed pages (at most the 32 MB of shared buffers) and lets the log before it be recycled; it
 * runs in the database's one session, so the statements behind it wait for it. On PostgreSQL the
 * server's checkpointer does this and nothing is done here.
 */
export async function checkpointIfDue(
  db: Db,
  limits: CheckpointLimits = CHECKPOINT_LIMITS,
  now = Date.now(),
): Promise<boolean> {
  if (!runsAlone(db)) return false;
  const [since] = await queryRows<{ walBytes: string | number; checkpointedAt: Date | string }>(
    db,
    sql`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn) as "walBytes",
               checkpoint_time as "checkpointedAt"
        from pg_control_checkpoint()`,
  );
  if (!since) return false;
  const walBytes = Number(since.walBytes);
  const age = now - new Date(since.checkpointedAt).getTime();
  const due = walBytes >= limits.walBytes || (walBytes >= limits.minWalBytes && age >= limits.everyMs);
  if (due) await db.execute(sql`checkpoint`);
  return due;
}
