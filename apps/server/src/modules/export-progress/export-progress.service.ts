import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExportProgressView } from '@coldchain/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { exportProgress } from './export-progress.table';

/** At most one progress write per export in this time: a poll every half second sees it move. */
const WRITE_EVERY_MS = 300;
/** Finished or abandoned rows are kept this long, then dropped by the next export. */
const KEEP_MS = 24 * 3_600_000;

interface Reporter {
  rows(done: number, total: number): void;
}

const current = new AsyncLocalStorage<Reporter>();

/**
 * Told by the one export writer (audit/export-file.ts) how many rows are in the file so far.
 * Outside a tracked export (no progress id, a scheduled backup run) it does nothing.
 */
export function reportExportRows(done: number, total: number): void {
  current.getStore()?.rows(done, total);
}

/**
 * Runs one export under a progress row: `reading` from the start, `writing` with the row count
 * as the writer reports it, then `done` or `failed`. Progress writes never hold the export up:
 * they are chained in the background and at most one per WRITE_EVERY_MS; the last is awaited.
 */
export async function trackExport<T>(
  db: Db,
  userId: number,
  progressId: string | undefined,
  build: () => Promise<T>,
): Promise<T> {
  if (!progressId) return build();
  await db.delete(exportProgress).where(lt(exportProgress.updatedAt, new Date(Date.now() - KEEP_MS)));
  await save(db, userId, progressId, 'reading', 0, 0);

  let chain: Promise<unknown> = Promise.resolve();
  let lastWrite = 0;
  const enqueue = (phase: 'writing' | 'done' | 'failed', done: number, total: number) => {
    chain = chain.then(() => save(db, userId, progressId, phase, done, total)).catch(() => undefined);
    return chain;
  };
  let latest = { done: 0, total: 0 };
  const reporter: Reporter = {
    rows(done, total) {
      latest = { done, total };
      const now = Date.now();
      if (now - lastWrite < WRITE_EVERY_MS && done < total) return;
      lastWrite = now;
      void enqueue('writing', done, total);
    },
  };
  try {
    const result = await current.run(reporter, build);
    await enqueue('done', latest.total, latest.total);
    return result;
  } catch (error) {
    await enqueue('failed', latest.done, latest.total);
    throw error;
  }
}

async function save(
  db: Db,
  userId: number,
  id: string,
  phase: 'reading' | 'writing' | 'done' | 'failed',
  done: number,
  total: number,
): Promise<void> {
  await db
    .insert(exportProgress)
    .values({ userId, id, phase, done, total })
    .onConflictDoUpdate({
      target: [exportProgress.userId, exportProgress.id],
      set: { phase, done, total, updatedAt: sql`now()` },
    });
}

/** `/api/export/progress`: the caller's own export only; anyone else's id reads as unknown. */
export async function exportProgressOf(
  db: Db,
  userId: number,
  progressId: string,
): Promise<ExportProgressView> {
  const [row] = await db
    .select({ phase: exportProgress.phase, done: exportProgress.done, total: exportProgress.total })
    .from(exportProgress)
    .where(and(eq(exportProgress.userId, userId), eq(exportProgress.id, progressId)));
  return row ?? { phase: 'unknown', done: 0, total: 0 };
}
