import type {
  OperationFigures,
  OperationRunView,
  OperationTaskView,
  PageOperationRunsRequest,
  PageOperationTasksRequest,
  RunOperationTaskRequest,
  SaveOperationTaskRequest,
  WireLanguage,
} from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { pgArray } from '../../db/pg-array';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import type { Actor } from '../audit/audit.service';
import type { Download } from '../audit/export-file';
import type { FileStore } from '../files/store/store';
import type { JobQueue } from '../jobs/job-queue';
import { departments } from '../org/org.table';
import { openReportFile } from '../reports/report-files.service';
import { reportFiles } from '../reports/report-files.table';
import { taskWrites } from '../scheduled-reports/task-writes';
import {
  type OperationTaskRow,
  operationReportRuns as runs,
  operationReportTasks as tasks,
} from './operation-reports.table';
import { enqueueOperationRun, scheduleOperationOccurrence } from './operation-run';
import { nextRunAfter, periodForRunNow } from './operation-schedule';

const epochMs = (column: SQL | unknown) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/**
 * Tasks the caller may see: every task of the company for members who see the whole company;
 * for a member of a department, the tasks of their department and those below it (a company
 * task summarises departments they may not see).
 */
export function visibleOperationTasks(auth: Auth): SQL {
  const company = sql`${tasks.companyId} = ${auth.companyId ?? -1}`;
  if (auth.scopePath === null) return company;
  return sql`${company} and ${tasks.departmentId} in (select d.id from ${departments} d
    where d.company_id = ${auth.companyId} and d.path like ${`${auth.scopePath}%`})`;
}

function presentTask(t: OperationTaskRow) {
  return {
    id: idToWire(t.id),
    name: t.name,
    departmentId: t.departmentId === null ? null : idToWire(t.departmentId),
    duration: t.duration,
    startDate: t.startDate,
    startHour: t.startHour,
    notifierIds: t.notifierIds.map(idToWire),
    emails: t.emails,
    timeZone: t.timeZone,
    nextRunTime: t.nextRunAt.getTime(),
  };
}

const writes = taskWrites({
  tasks,
  runs,
  audit: {
    targetType: 'operationReportTask',
    add: 'operationReportTask.add',
    edit: 'operationReportTask.edit',
    delete: 'operationReportTask.delete',
    run: 'operationReportTask.run',
  },
  present: presentTask,
  scheduleOccurrence: scheduleOperationOccurrence,
  enqueueRun: enqueueOperationRun,
});

async function taskOf(db: Db, auth: Auth, wireId: string): Promise<OperationTaskRow> {
  const [task] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, idFromWire(wireId) ?? -1), visibleOperationTasks(auth)));
  if (!task) throw new AppError('OPERATION_TASK_NOT_FOUND');
  return task;
}

/**
 * The department the task covers, which the caller must see: null for the whole company (only
 * for callers who see it all); the root department also means the whole company.
 */
async function scopeDepartment(db: Db, auth: Auth, companyId: number, wireId: string | undefined) {
  if (!wireId) {
    if (auth.scopePath !== null) throw new AppError('NO_PERMISSION');
    return null;
  }
  const [department] = await db
    .select({ id: departments.id, path: departments.path, parentId: departments.parentId })
    .from(departments)
    .where(and(eq(departments.id, idFromWire(wireId) ?? -1), eq(departments.companyId, companyId)));
  if (!department || (auth.scopePath !== null && !department.path.startsWith(auth.scopePath)))
    throw new AppError('OPERATION_DEPARTMENT_NOT_FOUND');
  if (department.parentId === null) {
    if (auth.scopePath !== null) throw new AppError('NO_PERMISSION');
    return null;
  }
  return department;
}

/** Notifiers must be members who may see what the report covers: its figures are theirs to read. */
async function checkNotifiers(db: Db, companyId: number, path: string | null, wireIds: string[]) {
  const ids = [...new Set(wireIds.map((id) => idFromWire(id)!))];
  if (ids.length === 0) return ids;
  const rows = await queryRows<{ user_id: string | number }>(
    db,
    sql`select m.user_id from company_members m left join ${departments} md on md.id = m.department_id
        where m.company_id = ${companyId} and m.user_id = any(${pgArray(ids)}::bigint[])
          and (m.is_admin or md.id is null or md.parent_id is null
               or (${path}::text is not null and ${path}::text like md.path || '%'))`,
  );
  if (rows.length !== ids.length) throw new AppError('OPERATION_NOTIFIER_OUT_OF_SCOPE');
  return ids;
}

/**
 * `/api/operationReport/saveTask`. The saver becomes the owner (runs are made while they may see
 * the scope). The next run (the end of the period in progress) is queued with the task; a
 * changed schedule queues a new one and the old job finds the task no longer holds its instant.
 */
export async function saveOperationTask(
  db: Db,
  queue: JobQueue,
  auth: Auth,
  actor: Actor,
  input: SaveOperationTaskRequest,
  language: WireLanguage,
  now: Date,
): Promise<{ id: string }> {
  const companyId = actor.companyId;
  const before = input.id ? await taskOf(db, auth, input.id) : null;
  const department = await scopeDepartment(db, auth, companyId, input.departmentId);
  const notifierIds = await checkNotifiers(db, companyId, department?.path ?? null, input.notifierIds);
  const schedule = {
    duration: input.duration,
    startDate: input.startDate,
    startHour: input.startHour,
    timeZone: input.timeZone,
  };
  const same =
    before &&
    before.duration === schedule.duration &&
    before.startDate === schedule.startDate &&
    before.startHour === schedule.startHour &&
    before.timeZone === schedule.timeZone;
  const nextRunAt = same ? before.nextRunAt : new Date(nextRunAfter(schedule, now.getTime()));
  const fields = {
    companyId,
    ownerId: auth.userId,
    name: input.name,
    departmentId: department?.id ?? null,
    ...schedule,
    notifierIds,
    emails: input.emails,
    language,
    nextRunAt,
  };
  return writes.save(db, queue, actor, before, fields);
}

/** `/api/operationReport/deleteTask`: the task and its runs go; the PDFs stay in the data centre. */
export async function deleteOperationTask(db: Db, auth: Auth, actor: Actor, wireId: string) {
  await writes.remove(db, actor, await taskOf(db, auth, wireId));
}

interface RawTask {
  id: number | string;
  name: string;
  departmentId: number | string | null;
  departmentName: string | null;
  duration: OperationTaskView['duration'];
  startDate: string;
  startHour: number;
  notifierIds: number[];
  notifierNames: string[];
  emails: string[];
  timeZone: string;
  nextRunTime: number;
  createTime: number;
}

/** `/api/operationReport/pageTasks`: one statement (db/page-query.ts). */
export function pageOperationTasks(db: Db, auth: Auth, query: PageOperationTasksRequest) {
  const row = sql`json_build_object(
    'id', ${tasks.id}, 'name', ${tasks.name}, 'departmentId', ${tasks.departmentId},
    'departmentName', (select d.name from ${departments} d where d.id = ${tasks.departmentId}),
    'duration', ${tasks.duration}, 'startDate', ${tasks.startDate}, 'startHour', ${tasks.startHour},
    'notifierIds', ${tasks.notifierIds},
    'notifierNames', (select coalesce(json_agg(u.name order by x.ord), '[]'::json)
      from jsonb_array_elements_text(${tasks.notifierIds}) with ordinality x(uid, ord)
      join users u on u.id = x.uid::bigint
      join company_members m on m.user_id = u.id and m.company_id = ${tasks.companyId}),
    'emails', ${tasks.emails}, 'timeZone', ${tasks.timeZone},
    'nextRunTime', ${epochMs(tasks.nextRunAt)}, 'createTime', ${epochMs(tasks.createdAt)})`;
  return pageOf(
    db,
    {
      row,
      from: tasks,
      where: visibleOperationTasks(auth),
      orderBy: sql`${tasks.createdAt} desc, ${tasks.id} desc`,
    },
    query,
    (t: RawTask): OperationTaskView => ({
      ...t,
      id: idToWire(Number(t.id)),
      departmentId: t.departmentId === null ? null : idToWire(Number(t.departmentId)),
      notifierIds: t.notifierIds.map((id) => idToWire(Number(id))),
      nextRunTime: Math.round(t.nextRunTime),
      createTime: Math.round(t.createTime),
    }),
  );
}

/** `/api/operationReport/runTask`: a run now, of the period just ended or of the one given. */
export async function runOperationTask(
  db: Db,
  queue: JobQueue,
  auth: Auth,
  actor: Actor,
  input: RunOperationTaskRequest,
  now: Date,
): Promise<{ runId: string }> {
  const task = await taskOf(db, auth, input.id);
  return writes.runNow(db, queue, actor, task, input, () => periodForRunNow(task, now.getTime()), now, {
    name: task.name,
  });
}

/** Runs of the tasks the caller sees. */
function visibleRuns(auth: Auth): SQL {
  return sql`${runs.companyId} = ${auth.companyId ?? -1}
    and ${runs.taskId} in (select ${tasks.id} from ${tasks} where ${visibleOperationTasks(auth)})`;
}

interface RawRun extends Omit<OperationRunView, 'id' | 'taskId' | 'departmentId'> {
  id: number | string;
  taskId: number | string;
  departmentId: number | string | null;
}

/** `/api/operationReport/pageRuns`: one statement, newest first. */
export function pageOperationRuns(db: Db, auth: Auth, query: PageOperationRunsRequest) {
  const row = sql`(select json_build_object(
    'id', ${runs.id}, 'taskId', ${runs.taskId}, 'taskName', t.name, 'departmentId', t.department_id,
    'departmentName', (select d.name from ${departments} d where d.id = t.department_id),
    'duration', t.duration, 'status', ${runs.status},
    'startTime', ${epochMs(runs.periodStart)}, 'endTime', ${epochMs(runs.periodEnd)}, 'timeZone', t.time_zone,
    'size', ${runs.size}, 'durationMs', ${runs.durationMs}, 'error', ${runs.error}, 'fileName', ${runs.fileName},
    'createTime', ${epochMs(runs.createdAt)})
    from ${tasks} t where t.id = ${runs.taskId})`;
  const where = sql`${visibleRuns(auth)}
    and ${whenGiven(idFromWire(query.taskId), 'bigint', (v) => sql`${runs.taskId} = ${v}`)}
    and ${whenGiven(query.status, 'text', (v) => sql`${runs.status} = ${v}`)}`;
  return pageOf(
    db,
    { row, from: runs, where, orderBy: sql`${runs.createdAt} desc, ${runs.id} desc` },
    query,
    (r: RawRun): OperationRunView => ({
      ...r,
      id: idToWire(Number(r.id)),
      taskId: idToWire(Number(r.taskId)),
      departmentId: r.departmentId === null ? null : idToWire(Number(r.departmentId)),
      startTime: Math.round(r.startTime),
      endTime: Math.round(r.endTime),
      createTime: Math.round(r.createTime),
    }),
  );
}

/** `/api/operationReport/runFigures`: what a made report says, for the console's report view. */
export async function operationRunFigures(
  db: Db,
  auth: Auth,
  wireId: string,
): Promise<{ taskName: string; figures: OperationFigures }> {
  const [row] = await db
    .select({ figures: runs.figures, taskName: tasks.name })
    .from(runs)
    .innerJoin(tasks, eq(tasks.id, runs.taskId))
    .where(and(eq(runs.id, idFromWire(wireId) ?? -1), visibleRuns(auth)));
  if (!row) throw new AppError('OPERATION_RUN_NOT_FOUND');
  if (!row.figures) throw new AppError('OPERATION_RUN_NOT_READY');
  return { taskName: row.taskName, figures: row.figures };
}

/** The stored PDF of a run: `downloadRun` passes the caller's visibility, the signed link the run id. */
export async function operationRunFile(db: Db, files: FileStore, where: SQL): Promise<Download> {
  const [row] = await db
    .select({ fileName: runs.fileName, storedPath: reportFiles.storedPath })
    .from(runs)
    .leftJoin(reportFiles, eq(reportFiles.id, runs.reportFileId))
    .where(where);
  if (!row) throw new AppError('OPERATION_RUN_NOT_FOUND');
  const file = row.storedPath && row.fileName ? await openReportFile(files, row.storedPath) : null;
  if (!file) throw new AppError('OPERATION_FILE_GONE');
  return { body: file.body, size: file.size, filename: row.fileName!, contentType: 'application/pdf' };
}

export { visibleRuns as visibleOperationRuns };
