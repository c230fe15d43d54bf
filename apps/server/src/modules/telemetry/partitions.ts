import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/** `readings_2026_11` for November 2026. */
export function partitionName(year: number, month: number): string {
  return `readings_${year}_${String(month).padStart(2, '0')}`;
}

/**
 * Makes sure monthly partitions exist from `monthsBack` months ago to `monthsAhead` months ahead.
 * Run at start and daily, so live data never lands in the default partition. A month whose rows
 * already sit in the default partition is left there (attaching would have to move them).
 */
/** Instances creating partitions take turns: two at once would both try the same `create table`. */
const PARTITION_LOCK = 7_231_021;

export async function ensureReadingPartitions(db: Db, now = new Date(), monthsBack = 2, monthsAhead = 2) {
  // `if not exists` does not make a concurrent create safe: the second one fails on the catalog's
  // unique index. Several instances start together (a rolling deploy, a compose `up`).
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    for (let offset = -monthsBack; offset <= monthsAhead; offset++) {
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
      const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
      const name = partitionName(start.getUTCFullYear(), start.getUTCMonth() + 1);
      const [inDefault] = await queryRows<{ taken: boolean }>(
        tx,
        sql`select exists (select 1 from readings_default where ts >= ${start.toISOString()} and ts < ${end.toISOString()}) as taken`,
      );
      if (inDefault?.taken) continue;
      await tx.execute(
        sql.raw(
          `create table if not exists ${name} partition of readings for values from ('${start.toISOString()}') to ('${end.toISOString()}')`,
        ),
      );
    }
  });
}
