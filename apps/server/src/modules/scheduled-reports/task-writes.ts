import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import type { JobQueue } from '../jobs/job-queue';
import type { Period } from './scheduled-run';

/**
 * The writes every scheduled report task makes (saveTask, deleteTask, runTask of backup tasks and
 * operation reports): the row, its queue job and its audit entry in one transaction, then the
 * queue woken. Each module checks its own input and the caller's right to the task first.
 */
export interface TaskWrites<Task extends { id: number; companyId: number }, View> {
  tasks: PgTable & { id: PgColumn };
  runs: PgTable & { id: PgColumn };
  /** Audit: the target type and the actions of saving, deleting and running a task. */
  audit: { targetType: string; add: string; edit: string; delete: string; run: string };
  /** The task as its audit entries show it. */
  present(task: Task): View;
  scheduleOccurrence(db: Queryable, taskId: number, at: number): Promise<unknown>;
  enqueueRun(db: Queryable, runId: number, now: Date): Promise<unknown>;
}

export function taskWrites<Task extends { id: number; companyId: number }, View>(w: TaskWrites<Task, View>) {
  /** Inserts a task or updates `before`; its next occurrence is queued with it. */
  async function save(
    db: Db,
    queue: JobQueue,
    actor: Actor,
    before: Task | null,
    fields: Record<string, unknown> & { nextRunAt: Date },
  ): Promise<{ id: string }> {
    const id = await db.transaction(async (tx) => {
      const [row] = (
        before
          ? await tx
              .update(w.tasks)
              .set(fields as never)
              .where(eq(w.tasks.id, before.id))
              .returning()
          : await tx
              .insert(w.tasks)
              .values(fields as never)
              .returning()
      ) as Task[];
      await w.scheduleOccurrence(tx, row!.id, fields.nextRunAt.getTime());
      await recordAudit(tx, actor, {
        action: before ? w.audit.edit : w.audit.add,
        targetType: w.audit.targetType,
        targetId: row!.id,
        before: before ? w.present(before) : undefined,
        after: w.present(row!),
      });
      return row!.id;
    });
    queue.wake();
    return { id: idToWire(id) };
  }

  /** The task and its runs go (cascade); their queued jobs find nothing. */
  async function remove(db: Db, actor: Actor, task: Task) {
    await db.transaction(async (tx) => {
      await tx.delete(w.tasks).where(eq(w.tasks.id, task.id));
      await recordAudit(tx, actor, {
        action: w.audit.delete,
        targetType: w.audit.targetType,
        targetId: task.id,
        before: w.present(task),
      });
    });
  }

  /**
   * A run now, of the period given (both ends) or else of `fallback`'s. `audited` goes first in
   * the audit entry's `after`, before the run id and the period.
   */
  async function runNow(
    db: Db,
    queue: JobQueue,
    actor: Actor,
    task: Task,
    input: { startTime?: number; endTime?: number },
    fallback: () => Period,
    now: Date,
    audited: Record<string, unknown> = {},
  ): Promise<{ runId: string }> {
    const period =
      input.startTime !== undefined && input.endTime !== undefined
        ? { startTime: input.startTime, endTime: input.endTime }
        : fallback();
    const runId = await db.transaction(async (tx) => {
      const [run] = (await tx
        .insert(w.runs)
        .values({
          companyId: task.companyId,
          taskId: task.id,
          periodStart: new Date(period.startTime),
          periodEnd: new Date(period.endTime),
        } as never)
        .returning({ id: w.runs.id })) as { id: number }[];
      await w.enqueueRun(tx, run!.id, now);
      await recordAudit(tx, actor, {
        action: w.audit.run,
        targetType: w.audit.targetType,
        targetId: task.id,
        after: { ...audited, runId: run!.id, ...period },
      });
      return run!.id;
    });
    queue.wake();
    return { runId: idToWire(runId) };
  }

  return { save, remove, runNow };
}
