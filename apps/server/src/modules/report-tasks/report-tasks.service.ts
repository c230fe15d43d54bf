import type {
  PageReportRunsRequest,
  PageReportTasksRequest,
  ReportRunView,
  ReportTaskView,
  RunReportTaskRequest,
  SaveReportTaskRequest,
  WireLanguage,
} from '@coldchain/contract';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { equipment } from '../equipment/equipment.table';
import type { JobQueue } from '../jobs/job-queue';
import { membersAmong, visibleDevices } from '../org/access';
import { enqueueRun, scheduleOccurrence } from './report-run';
import { readReportFile } from './report-store';
import { type ReportTaskRow, reportRuns, reportTasks } from './report-tasks.table';
import { nextRunAfter, periodEndedAt } from './schedule';

const ids = (wire: string[]) => wire.map((id) => idFromWire(id)!);

function presentTask(t: ReportTaskRow): ReportTaskView {
  return {
    id: idToWire(t.id),
    name: t.name,
    type: t.type,
    frequency: t.frequency,
    format: t.format,
    deviceIds: t.deviceIds.map(idToWire),
    equipmentIds: t.equipmentIds.map(idToWire),
    recipientIds: t.recipientIds.map(idToWire),
    emails: t.emails,
    timeZone: t.timeZone,
    nextRunTime: t.nextRunAt.getTime(),
    createTime: t.createdAt.getTime(),
  };
}

/**
 * Tasks the caller may see: all of the company for members who see the whole company, else only
 * their own. A task's files hold what its owner sees, so someone of another department must not
 * read them through the task.
 */
export function visibleTasks(auth: Auth): SQL {
  const company = eq(reportTasks.companyId, auth.companyId ?? -1);
  return auth.scopePath === null ? company : and(company, eq(reportTasks.ownerId, auth.userId))!;
}

async function taskOf(db: Db, auth: Auth, wireId: string): Promise<ReportTaskRow> {
  const [task] = await db
    .select()
    .from(reportTasks)
    .where(and(eq(reportTasks.id, idFromWire(wireId)!), visibleTasks(auth)));
  if (!task) throw new AppError('REPORT_TASK_NOT_FOUND');
  return task;
}

/** Devices the caller may see, equipment of the company, recipients who are members. */
async function checkTargets(db: Db, auth: Auth, companyId: number, input: SaveReportTaskRequest) {
  const deviceIds = ids(input.deviceIds);
  if (deviceIds.length) {
    const [seen] = await db
      .select({ n: count() })
      .from(devices)
      .where(and(visibleDevices(auth), inArray(devices.id, deviceIds)));
    if (Number(seen?.n) !== new Set(deviceIds).size) throw new AppError('DEVICE_NOT_FOUND');
  }
  const equipmentIds = ids(input.equipmentIds);
  if (equipmentIds.length) {
    const [seen] = await db
      .select({ n: count() })
      .from(equipment)
      .where(and(eq(equipment.companyId, companyId), inArray(equipment.id, equipmentIds)));
    if (Number(seen?.n) !== new Set(equipmentIds).size) throw new AppError('REPORT_EQUIPMENT_NOT_FOUND');
  }
  const recipientIds = ids(input.recipientIds);
  const members = await membersAmong(db, companyId, recipientIds);
  if (members.length !== new Set(recipientIds).size) throw new AppError('REPORT_RECIPIENT_NOT_MEMBER');
  return { deviceIds, equipmentIds, recipientIds };
}

/**
 * `/api/report/saveTask`. The saver becomes the task's owner: runs take out what they may see.
 * The next occurrence is queued with the task; a changed schedule queues a new one, and the job
 * of the old one finds the task no longer holds its instant and does nothing.
 */
export async function saveTask(
  db: Db,
  queue: JobQueue,
  auth: Auth,
  actor: Actor,
  input: SaveReportTaskRequest,
  language: WireLanguage,
  now: Date,
): Promise<{ id: string }> {
  const companyId = actor.companyId;
  const before = input.id ? await taskOf(db, auth, input.id) : null;
  const targets = await checkTargets(db, auth, companyId, input);
  const sameSchedule = before && before.frequency === input.frequency && before.timeZone === input.timeZone;
  const nextRunAt = sameSchedule
    ? before.nextRunAt
    : new Date(nextRunAfter(input.frequency, input.timeZone, now.getTime()));
  const fields = {
    companyId,
    ownerId: auth.userId,
    name: input.name,
    type: input.type,
    frequency: input.frequency,
    format: input.format,
    ...targets,
    emails: input.emails,
    timeZone: input.timeZone,
    language,
    nextRunAt,
  };
  const id = await db.transaction(async (tx) => {
    const [row] = before
      ? await tx.update(reportTasks).set(fields).where(eq(reportTasks.id, before.id)).returning()
      : await tx.insert(reportTasks).values(fields).returning();
    await scheduleOccurrence(tx, row!.id, nextRunAt.getTime());
    await recordAudit(tx, actor, {
      action: before ? 'reportTask.edit' : 'reportTask.add',
      targetType: 'reportTask',
      targetId: row!.id,
      before: before ? presentTask(before) : undefined,
      after: presentTask(row!),
    });
    return row!.id;
  });
  queue.wake();
  return { id: idToWire(id) };
}

/**
 * `/api/report/deleteTask`: the task, its runs and their links go; queued jobs find nothing. The
 * files stay among the company's generated files (data centre), like any other export.
 */
export async function deleteTask(db: Db, auth: Auth, actor: Actor, wireId: string) {
  const task = await taskOf(db, auth, wireId);
  await db.transaction(async (tx) => {
    await tx.delete(reportTasks).where(eq(reportTasks.id, task.id));
    await recordAudit(tx, actor, {
      action: 'reportTask.delete',
      targetType: 'reportTask',
      targetId: task.id,
      before: presentTask(task),
    });
  });
}

export async function pageTasks(db: Db, auth: Auth, query: PageReportTasksRequest) {
  const where = visibleTasks(auth);
  const [total] = await db.select({ n: count() }).from(reportTasks).where(where);
  const rows = await db
    .select()
    .from(reportTasks)
    .where(where)
    .orderBy(desc(reportTasks.createdAt), desc(reportTasks.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return { list: rows.map(presentTask), total: Number(total?.n ?? 0), ...query };
}

/** `/api/report/runTask`: a run now, of the period just ended or of the one given. */
export async function runTask(
  db: Db,
  queue: JobQueue,
  auth: Auth,
  actor: Actor,
  input: RunReportTaskRequest,
  now: Date,
): Promise<{ runId: string }> {
  const task = await taskOf(db, auth, input.id);
  const period =
    input.startTime !== undefined && input.endTime !== undefined
      ? { startTime: input.startTime, endTime: input.endTime }
      : periodEndedAt(task.frequency, task.timeZone, now.getTime());
  const runId = await db.transaction(async (tx) => {
    const [run] = await tx
      .insert(reportRuns)
      .values({
        companyId: task.companyId,
        taskId: task.id,
        periodStart: new Date(period.startTime),
        periodEnd: new Date(period.endTime),
      })
      .returning({ id: reportRuns.id });
    await enqueueRun(tx, run!.id, now);
    await recordAudit(tx, actor, {
      action: 'reportTask.run',
      targetType: 'reportTask',
      targetId: task.id,
      after: { runId: run!.id, ...period },
    });
    return run!.id;
  });
  queue.wake();
  return { runId: idToWire(runId) };
}

export async function pageRuns(db: Db, auth: Auth, query: PageReportRunsRequest) {
  const filters: SQL[] = [visibleTasks(auth)];
  if (query.taskId) filters.push(eq(reportRuns.taskId, idFromWire(query.taskId)!));
  const where = and(...filters);
  const [total] = await db
    .select({ n: count() })
    .from(reportRuns)
    .innerJoin(reportTasks, eq(reportTasks.id, reportRuns.taskId))
    .where(where);
  const rows = await db
    .select({ run: reportRuns, taskName: reportTasks.name })
    .from(reportRuns)
    .innerJoin(reportTasks, eq(reportTasks.id, reportRuns.taskId))
    .where(where)
    .orderBy(desc(reportRuns.createdAt), desc(reportRuns.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const list: ReportRunView[] = rows.map(({ run, taskName }) => ({
    id: idToWire(run.id),
    taskId: idToWire(run.taskId),
    taskName,
    status: run.status,
    startTime: run.periodStart.getTime(),
    endTime: run.periodEnd.getTime(),
    size: run.size,
    duration: run.durationMs,
    error: run.error,
    fileName: run.fileName,
    createTime: run.createdAt.getTime(),
  }));
  return { list, total: Number(total?.n ?? 0), ...query };
}

/** The stored file of a run, for `downloadRun` (of a task the caller sees) and the signed link. */
export async function runFile(db: Db, uploadDir: string, where: SQL) {
  const [row] = await db
    .select({ run: reportRuns })
    .from(reportRuns)
    .innerJoin(reportTasks, eq(reportTasks.id, reportRuns.taskId))
    .where(where);
  const run = row?.run;
  if (!run) throw new AppError('REPORT_RUN_NOT_FOUND');
  const body = run.storedName ? await readReportFile(uploadDir, run.storedName) : null;
  if (!body) throw new AppError('REPORT_FILE_GONE');
  return { run, body, fileName: run.fileName!, contentType: run.contentType! };
}
