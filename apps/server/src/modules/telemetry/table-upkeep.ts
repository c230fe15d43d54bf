import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/**
 * Tables every ingest batch and alarm evaluation reads or updates by key: their plans must follow
 * their size, and their rows are rewritten all day (last contact, latest values, engine states).
 */
const HOT_TABLES = ['devices', 'sensors', 'alarm_settings', 'alarm_state', 'alarm_records'];
/** The small ones among them, rewritten on every reading: vacuumed on a schedule. */
const VACUUMED_TABLES = ['devices', 'sensors', 'alarm_state'];

/** A table is analysed again once it has grown this many times its pages when last analysed. */
const GROWTH = 2;
/** ...and by at least this many pages (64 KB): below that every plan is cheap. */
const MIN_GROWTH_PAGES = 8;

/**
 * Whether something else keeps the statistics and reclaims dead rows: a PostgreSQL server's
 * autovacuum. The embedded database runs in single-user mode, where autovacuum never runs.
 */
async function hasAutovacuum(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ running: boolean }>(
    db,
    sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as running`,
  );
  return row?.running === true;
}

/**
 * Analyses the hot tables that have outgrown their statistics, which also makes PostgreSQL plan
 * again the statements prepared on them (db/planned-once.ts). A statement planned while a table
 * was small keeps its plan (a scan of the whole table, cheapest then) for the life of the session;
 * on the embedded database nothing else would ever refresh it, and a fleet added after the server
 * started would be scanned whole on every batch. Returns the tables analysed.
 */
export async function analyseGrownTables(db: Db): Promise<string[]> {
  if (await hasAutovacuum(db)) return [];
  const rows = await queryRows<{ name: string; analysed: number; pages: number | string }>(
    db,
    sql`select c.relname as name, c.relpages as analysed,
               pg_relation_size(c.oid) / current_setting('block_size')::int as pages
        from pg_class c
        where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
          and c.relname in (select json_array_elements_text(${JSON.stringify(HOT_TABLES)}::json))`,
  );
  const grown = rows
    .filter(
      (r) =>
        Number(r.pages) >= Math.max(r.analysed, 1) * GROWTH &&
        Number(r.pages) - r.analysed >= MIN_GROWTH_PAGES,
    )
    .map((r) => r.name);
  for (const table of grown) await db.execute(sql.raw(`analyze ${table}`));
  return grown;
}

/**
 * Reclaims the dead row versions of the small hot tables (each reading rewrites a device, a sensor
 * and an engine state) and refreshes their statistics, where no autovacuum does it.
 */
export async function vacuumHotTables(db: Db): Promise<void> {
  if (await hasAutovacuum(db)) return;
  for (const table of VACUUMED_TABLES) await db.execute(sql.raw(`vacuum (analyze) ${table}`));
}

/**
 * Transactions after which a table's rows are frozen here: a twentieth of PostgreSQL's
 * `autovacuum_freeze_max_age`. Early and often, because VACUUM skips the pages already all
 * frozen: each time reads only what changed since the last, a stall of the database's one
 * session that stays small, where freezing a large table for the first time late would hold it
 * for minutes. A fleet of 10 000 devices reaches it every three days or so, a site of a few
 * hundred loggers every few years.
 */
export const FREEZE_AFTER_TRANSACTIONS = 10_000_000;

/**
 * Freezes the rows of the tables (and their TOAST tables, which VACUUM takes with them) whose
 * oldest unfrozen transaction is older than `afterTransactions`, oldest first, where no
 * autovacuum does it. PostgreSQL's transaction ids wrap around after about two billion; a row
 * not frozen by then looks as if it were written in the future and disappears from every query.
 * A server stops assigning ids before that, but single-user mode, which the embedded database
 * runs in, only warns, and its autovacuum never runs. A fleet of 10 000 devices commits about 40
 * ingest transactions a second: under two years. The catalogs age as well, and the database's
 * age is its oldest table's. Returns the tables frozen.
 */
export async function freezeAgedTables(
  db: Db,
  afterTransactions = FREEZE_AFTER_TRANSACTIONS,
): Promise<string[]> {
  if (await hasAutovacuum(db)) return [];
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select c.oid::regclass::text as name
        from pg_class c
        where c.relkind in ('r', 'm') and c.relpersistence <> 't'
          and age(c.relfrozenxid) > ${afterTransactions}::int
        order by age(c.relfrozenxid) desc`,
  );
  for (const { name } of rows) await db.execute(sql.raw(`vacuum (freeze) ${name}`));
  return rows.map((r) => r.name);
}
