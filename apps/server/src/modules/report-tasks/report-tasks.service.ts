import type {
  Page,
  PageReportRunsRequest,
  PageReportTasksRequest,
  ReportRunView,
  ReportTaskView,
  RunReportTaskRequest,
  SaveReportTaskRequest,
  WireLanguage,
} from '@coldchain/contract';
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import type { Actor } from '../audit/audit.service';
import type { Download } from '../audit/export-file';
import { devices } from '../devices/devices.table';
import { equipment } from '../equipment/equipment.table';
import type { FileStore } from '../files/store/store';
import type { JobQueue } from '../jobs/job-queue';
import { membersAmong, visibleDevices } from '../org/access';
import { taskWrites } from '../scheduled-reports/task-writes';
import { enqueueRun, scheduleOccurrence } from './report-run';
import { openRunFile } from './report-store';
import { type ReportTaskRow, reportRuns, reportTasks } from './report-tasks.table';
import { nextRunAfter, periodEndedAt } from './schedule';

const ids = (wire: string[]) => wire.map((id) => idFromWire(id)!);

const TASK_ROW = jsonRowOf(reportTasks, 'report_tasks');

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

const writes = taskWrites({
  tasks: reportTasks,
  runs: reportRuns,
  audit: {
    targetType: 'reportTask',
    add: 'reportTask.add',
    edit: 'reportTask.edit',
    delete: 'reportTask.delete',
    run: 'reportTask.run',
  },
  present: presentTask,
  scheduleOccurrence,
  enqueueRun,
});

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
  return writes.save(db, queue, actor, before, fields);
}

/**
 * `/api/report/deleteTask`: the task, its runs and their links go; queued jobs find nothing. The
 * files stay among the company's generated files (data centre), like any other export.
 */
export async function deleteTask(db: Db, auth: Auth, actor: Actor, wireId: string) {
  await writes.remove(db, actor, await taskOf(db, auth, wireId));
}

/** `/api/report/pageTasks`: one statement (db/page-query.ts), newest first. */
export async function pageTasks(
  db: Db,
  auth: Auth,
  query: PageReportTasksRequest,
): Promise<Page<ReportTaskView>> {
  return pageOf(
    db,
    {
      row: TASK_ROW,
      from: reportTasks,
      where: visibleTasks(auth),
      orderBy: sql`${reportTasks.createdAt} desc, ${reportTasks.id} desc`,
    },
    query,
    (raw: Record<string, unknown>) => presentTask(decodeJsonRow(reportTasks, raw)),
  );
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
  return writes.runNow(
    db,
    queue,
    actor,
    task,
    input,
    () => periodEndedAt(task.frequency, task.timeZone, now.getTime()),
    now,
  );
}

/** A run as one JSON value, with its task's name beside it. */
const RUN_ROW = sql`json_build_object(
  'run', ${jsonRowOf(reportRuns, 'report_runs')},
  'taskName', (select t.name from ${reportTasks} t where t.id = ${reportRuns.taskId}))`;

/**
 * `/api/report/pageRuns`: one statement, newest first. A run is listed when its task is one the
 * caller sees (visibleTasks names `report_tasks` columns, so it is asked inside `exists`).
 */
export async function pageRuns(
  db: Db,
  auth: Auth,
  query: PageReportRunsRequest,
): Promise<Page<ReportRunView>> {
  const where = and(
    sql`exists (select 1 from ${reportTasks} where ${reportTasks.id} = ${reportRuns.taskId} and ${visibleTasks(auth)})`,
    whenGiven(idFromWire(query.taskId) ?? null, 'bigint', (taskId) => sql`${reportRuns.taskId} = ${taskId}`),
  );
  return pageOf(
    db,
    {
      row: RUN_ROW,
      from: reportRuns,
      where,
      orderBy: sql`${reportRuns.createdAt} desc, ${reportRuns.id} desc`,
    },
    query,
    (raw: { run: Record<string, unknown>; taskName: string }) => {
      const run = decodeJsonRow(reportRuns, raw.run);
      return {
        id: idToWire(run.id),
        taskId: idToWire(run.taskId),
        taskName: raw.taskName,
        status: run.status,
        startTime: run.periodStart.getTime(),
        endTime: run.periodEnd.getTime(),
        size: run.size,
        duration: run.durationMs,
        error: run.error,
        fileName: run.fileName,
        createTime: run.createdAt.getTime(),
      };
    },
  );
}

/** The stored file of a run, for `downloadRun` (of a task the caller sees) and the signed link. */
export async function runFile(db: Db, files: FileStore, where: SQL): Promise<Download> {
  const [row] = await db
    .select({ run: reportRuns })
    .from(reportRuns)
    .innerJoin(reportTasks, eq(reportTasks.id, reportRuns.taskId))
    .where(where);
  const run = row?.run;
  if (!run) throw new AppError('REPORT_RUN_NOT_FOUND');
  const file = run.storedName ? await openRunFile(files, run.storedName) : null;
  if (!file) throw new AppError('REPORT_FILE_GONE');
  return { body: file.body, size: file.size, filename: run.fileName!, contentType: run.contentType! };
}
