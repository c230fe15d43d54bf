import type { Db } from '../../db/client';
import { packOldReadings } from './packing';
import { ensureReadingPartitions } from './partitions';

/** Partitions and packing are a daily concern; once a day keeps both a step ahead. */
const MAINTENANCE_EVERY_MS = 24 * 3_600_000;

/**
 * Daily reading-storage upkeep: the monthly partitions ahead of time, so live data never lands in
 * the default partition, then packing of readings older than two days (packing.ts). Runs a minute
 * after start (not in the rush of devices reconnecting and the demo seed) and then daily; one run
 * at a time. server.ts also prepares the partitions before it listens.
 */
export function startStorageMaintenance(
  db: Db,
  onError: (err: unknown) => void,
  everyMs = MAINTENANCE_EVERY_MS,
) {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= (async () => {
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
  first.unref();
  timer.unref();
  /** Stops the timers and waits for a run in progress, so the database is not closed under it. */
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
