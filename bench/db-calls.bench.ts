/**
 * The embedded database's fixed cost per call, the floor under every statement the server sends
 * (docs/performance.md, "What a call to the embedded database costs"). PGlite runs PostgreSQL as
 * WebAssembly: each call crosses into it, runs the wire protocol and comes back, whatever the
 * statement does. Timed in this process on an in-memory database, then through the database
 * thread the server uses (`PGliteThread`), where a call also crosses between threads.
 */
import { PGlite } from '@electric-sql/pglite';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { PGliteThread } from '../apps/server/src/db/pglite-proxy';
import { devices, sensors } from '../apps/server/src/modules/devices/devices.table';

export interface CallCost {
  label: string;
  /** Mean wall time per operation, in microseconds. */
  micros: number;
}

const WARM_UP = 300;

async function timed(label: string, runs: number, operation: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARM_UP; i++) await operation(i);
  const started = performance.now();
  for (let i = 0; i < runs; i++) await operation(i);
  return { label, micros: Math.round(((performance.now() - started) / runs) * 1000) };
}

/** Mean time of a synchronous step, in microseconds, after a warm-up. */
function timedSync(label: string, runs: number, step: () => unknown): CallCost {
  for (let i = 0; i < WARM_UP * 10; i++) step();
  const started = performance.now();
  for (let i = 0; i < runs; i++) step();
  return { label, micros: Math.round(((performance.now() - started) / runs) * 1000) };
}

/**
 * What drizzle's query builder costs the main thread before a statement is sent: the SQL text
 * and parameters built again at every call (`toSQL`, the same work as running it). A select of
 * every column walks each column through drizzle's type checks.
 */
function buildingCosts(runs: number): CallCost[] {
  const db = drizzle.mock();
  return [
    timedSync('drizzle builds a select of all 27 columns of `devices` by id and company', runs, () =>
      db
        .select()
        .from(devices)
        .where(and(eq(devices.id, 5), eq(devices.companyId, 3)))
        .limit(1)
        .toSQL(),
    ),
    timedSync('drizzle builds a select of one column by id', runs, () =>
      db.select({ id: devices.id }).from(devices).where(eq(devices.id, 5)).toSQL(),
    ),
    timedSync('drizzle builds a select of all columns of `sensors` by device', runs, () =>
      db.select().from(sensors).where(eq(sensors.deviceId, 5)).toSQL(),
    ),
    timedSync('drizzle builds an update of five columns of `devices`, returning the row', runs, () =>
      db
        .update(devices)
        .set({ name: 'x', remark: 'y', region: 'z', address: 'a', recordIntervalS: 60 })
        .where(eq(devices.id, 5))
        .returning()
        .toSQL(),
    ),
    timedSync('drizzle builds a `sql` template of 13 parameters', runs, () =>
      db
        .execute(sql`select ${1}, ${2}, ${3}, ${4}, ${5}, ${6}, ${7}, ${8}, ${9}, ${10}, ${11}, ${12}, ${13}`)
        .getQuery(),
    ),
  ];
}

const UPSERT = `insert into t (id, v) values ($1, 'x') on conflict (id) do update set v = 'y'`;

export async function benchDbCalls(runs = 3_000): Promise<CallCost[]> {
  const costs: CallCost[] = [];
  const db = new PGlite();
  await db.waitReady;
  await db.exec('create table t (id int primary key, v text)');
  await db.query('prepare one as select $1::int');
  costs.push(
    await timed('in process, `query` select 1 (extended protocol)', runs, () => db.query('select 1')),
    await timed('in process, `exec` select 1 (simple protocol)', runs, () => db.exec('select 1')),
    await timed('in process, `exec` of a prepared statement', runs, (i) => db.exec(`execute one('${i}')`)),
    await timed('in process, `exec` BEGIN; COMMIT (two statements, one call)', runs, () =>
      db.exec('BEGIN; COMMIT'),
    ),
    await timed('in process, BEGIN, an upsert, COMMIT as three calls', runs, async (i) => {
      await db.query('BEGIN');
      await db.query(UPSERT, [i % 100]);
      await db.query('COMMIT');
    }),
    await timed('in process, BEGIN, an upsert, COMMIT in one `exec`', runs, (i) =>
      db.exec(`BEGIN; ${UPSERT.replace('$1', String(i % 100))}; COMMIT`),
    ),
  );
  await db.close();

  const thread = await PGliteThread.start();
  await thread.exec('create table t (id int primary key, v text)');
  costs.push(
    await timed('database thread, select 1, one at a time', runs, () => thread.query('select 1')),
    await timed('database thread, select 1, 50 sent together (per statement)', runs / 50, () =>
      Promise.all(Array.from({ length: 50 }, () => thread.query('select 1'))),
    ).then((c) => ({ ...c, micros: Math.round(c.micros / 50) })),
    await timed('database thread, a transaction of one upsert', runs, (i) =>
      thread.transaction((tx) => tx.query(UPSERT, [i % 100])),
    ),
  );
  await thread.close();
  costs.push(...buildingCosts(runs * 5));
  return costs;
}
