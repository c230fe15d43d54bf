import { sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { DAY, minuteRollupFrom } from './reading-sources';

/** Whole UTC days a reading stays in `readings` before it is packed: late uploads land there first. */
export const PACK_AFTER_DAYS = 2;

/** Readings before this instant belong packed: the start of the UTC day `PACK_AFTER_DAYS` ago. */
export function packedBefore(now: number): number {
  return Math.floor(now / DAY) * DAY - PACK_AFTER_DAYS * DAY;
}

export interface PackResult {
  /** Readings moved from `readings` into `readings_packed`. */
  moved: number;
  /** Partitions emptied whole and truncated (their space is returned at once). */
  truncated: string[];
  /** Minute rollup rows older than a week, deleted. */
  prunedMinutes: number;
}

interface Partition {
  name: string;
  /** Upper bound of the partition's range in ms, null for the default partition. */
  endsAt: number | null;
}

async function readingPartitions(db: Db): Promise<Partition[]> {
  const rows = await queryRows<{ name: string; bound: string }>(
    db,
    sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'readings'::regclass order by c.relname`,
  );
  return rows.map(({ name, bound }) => {
    const to = /TO \('([^']+)'\)/.exec(bound)?.[1];
    return { name, endsAt: to ? Date.parse(to) : null };
  });
}

/**
 * Moves a partition's readings before `before` into `readings_packed`, one row per sensor and UTC
 * day. A day packed before (a late upload) is merged with its packed row, instants kept unique
 * (the packed reading wins). Moving and deleting happen in one statement, so a reading is always
 * in exactly one of the two tables.
 */
async function movePartition(db: Queryable, partition: string, before: number): Promise<number> {
  const [row] = await queryRows<{ moved: number }>(
    db,
    sql`with moved as (
          delete from ${sql.raw(partition)} where ts < ${new Date(before).toISOString()}
          returning sensor_id, ts, value, backfilled
        ), days as (
          select sensor_id, date_bin('1 day', ts, timestamptz '2000-01-01 00:00:00+00') as day,
                 array_agg(ts order by ts) as ts, array_agg(value order by ts) as value,
                 array_agg(backfilled order by ts) as backfilled, count(*) as n
          from moved group by 1, 2
        ), packed as (
          insert into readings_packed as p (sensor_id, day, ts, value, backfilled)
          select sensor_id, day, ts, value, backfilled from days
          on conflict (sensor_id, day) do update set (ts, value, backfilled) = (
            select array_agg(m.t order by m.t), array_agg(m.v order by m.t), array_agg(m.b order by m.t)
            from (select distinct on (u.t) u.t, u.v, u.b
                  from unnest(p.ts || excluded.ts, p.value || excluded.value, p.backfilled || excluded.backfilled)
                       with ordinality as u(t, v, b, o)
                  order by u.t, u.o) m)
        )
        select coalesce(sum(n), 0)::int as moved from days`,
  );
  return row?.moved ?? 0;
}

/**
 * Packs every reading older than `PACK_AFTER_DAYS` whole days and prunes the minute rollup to its
 * week (run daily by storage-maintenance.ts, and by the benchmark). A partition whose whole range is older is emptied and truncated under a
 * lock in one transaction, so no late upload can slip in between; the others (the current month,
 * the default partition) give their rows up by delete and are vacuumed so the space is reused.
 */
export async function packOldReadings(db: Db, now = Date.now()): Promise<PackResult> {
  const before = packedBefore(now);
  const result: PackResult = { moved: 0, truncated: [], prunedMinutes: 0 };
  for (const partition of await readingPartitions(db)) {
    if (partition.endsAt !== null && partition.endsAt <= before) {
      const moved = await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`lock table ${partition.name} in access exclusive mode`));
        const n = await movePartition(tx, partition.name, before);
        if (n > 0) await tx.execute(sql.raw(`truncate ${partition.name}`));
        return n;
      });
      result.moved += moved;
      if (moved > 0) result.truncated.push(partition.name);
    } else {
      const moved = await movePartition(db, partition.name, before);
      result.moved += moved;
      if (moved > 0) await db.execute(sql.raw(`vacuum ${partition.name}`));
    }
  }
  const [pruned] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from readings_minute where bucket < ${new Date(minuteRollupFrom(now)).toISOString()} returning 1)
        select count(*)::int as n from gone`,
  );
  result.prunedMinutes = pruned?.n ?? 0;
  if (result.prunedMinutes > 0) await db.execute(sql`vacuum readings_minute`);
  return result;
}
