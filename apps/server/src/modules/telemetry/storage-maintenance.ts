import { checkpointIfDue } from '../../db/checkpoints';
import type { Db } from '../../db/client';
import type { SweepGate } from '../jobs/sweep-slots';
import { packOldReadings } from './packing';
import { ensureReadingPartitions } from './partitions';
import { analyseGrownTables, freezeAgedTables, vacuumHotTables } from './table-upkeep';

/** Partitions and packing are a daily concern; once a day keeps both a step ahead. */
const MAINTENANCE_EVERY_MS = 24 * 3_600_000;
/** How often the hot tables' growth is checked (table-upkeep.ts): a fleet added is planned for within this. */
const GROWTH_CHECK_EVERY_MS = 30_000;
/** How often the small hot tables are vacuumed where no autovacuum runs (a few milliseconds each). */
const VACUUM_EVERY_MS = 10 * 60_000;
/** How often the embedded database's write-ahead log is checked for a checkpoint due (db/checkpoints.ts). */
const CHECKPOINT_CHECK_EVERY_MS = 15_000;

/**
 * Daily reading-storage upkeep: the monthly partitions ahead of time, so live data never lands in
 * the default partition, then packing of readings older than two days (packing.ts). Runs a minute
 * after start (not in the rush of devices reconnecting and the demo seed) and then daily; one run
 * at a time. server.ts also prepares the partitions before it listens. Besides, the hot tables'
 * statistics follow their growth, the small ones are vacuumed and old rows frozen
 * (table-upkeep.ts), and the embedded database, which has no checkpointer, writes its
 * checkpoints (db/checkpoints.ts).
 */
export function startStorageMaintenance(
  db: Db,
  onError: (err: unknown) => void,
  everyMs = MAINTENANCE_EVERY_MS,
  gate?: SweepGate,
) {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= (async () => {
      // One instance a day packs the readings (jobs/sweep-slots.ts); the hot tables' upkeep
      // below is per instance's own statistics, cheap, and stays ungated.
      if (gate && !(await gate('storage', everyMs))) return;
      await ensureReadingPartitions(db);
      await packOldReadings(db);
    })()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, everyMs);
  // The hot tables' upkeep, one step at a time and never beside the daily run.
  let upkeep: Promise<void> | null = null;
  const keepUp = (step: () => Promise<unknown>) => () => {
    if (running || upkeep) return;
    upkeep = step()
      .then(() => undefined)
      .catch(onError)
      .finally(() => {
        upkeep = null;
      });
  };
  const growth = setInterval(
    keepUp(() => analyseGrownTables(db)),
    GROWTH_CHECK_EVERY_MS,
  );
  const vacuum = setInterval(
    keepUp(async () => {
      await vacuumHotTables(db);
      await freezeAgedTables(db);
    }),
    VACUUM_EVERY_MS,
  );
  const checkpoint = setInterval(
    keepUp(() => checkpointIfDue(db)),
    CHECKPOINT_CHECK_EVERY_MS,
  );
  for (const t of [first, timer, growth, vacuum, checkpoint]) t.unref();
  /** Stops the timers and waits for a run in progress, so the database is not closed under it. */
  return async () => {
    clearTimeout(first);
    for (const t of [timer, growth, vacuum, checkpoint]) clearInterval(t);
    await running;
    await upkeep;
  };
}
