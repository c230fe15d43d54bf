import type { WireLanguage } from '@coldchain/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { ZodError } from 'zod';
import type { Db, Queryable } from '../../db/client';
import { fieldLabel, type MessageKey, messages, translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { formatInstant } from '../audit/export-file';
import { companyMembers } from '../companies/companies.table';
import { formatBytes } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { enqueueJob, type JobQueue } from '../jobs/job-queue';
import type { Mailer } from '../notify/mailer';
import { users } from '../users/users.table';
import { REPORT_LINK_TTL_MS, signLinkToken } from './run-link';

/**
 * The one job mechanism of scheduled reports (backup tasks in report-tasks, operation reports in
 * operation-reports): a task's occurrence and each run are jobs on the server's one queue
 * (jobs/job-queue.ts), a run's file is made once and e-mailed as an attachment or a signed link.
 * What differs (tables, job kinds, how the file is made, mail texts, link path) is the spec.
 */

export interface ScheduledReportDeps {
  db: Db;
  queue: JobQueue;
  mailer: Mailer | null;
  log: FastifyBaseLogger;
  /** Where run files are kept (modules/files/store). */
  files: FileStore;
  attachMaxBytes: number;
  /** Where links in e-mails point: PUBLIC_URL, else this server. */
  baseUrl: string;
}

export interface Period {
  startTime: number;
  endTime: number;
}

/** The columns every task table has (report_tasks, operation_report_tasks). */
export interface ScheduledTask {
  id: number;
  companyId: number;
  name: string;
  emails: string[];
  timeZone: string;
  language: WireLanguage;
  nextRunAt: Date;
}

/** The columns every run table has (report_runs, operation_report_runs). */
export interface ScheduledRun {
  id: number;
  status: string;
  periodStart: Date;
  periodEnd: Date;
  fileName: string | null;
  linkKey: string | null;
}

type TableOf<K extends string> = PgTable & Record<K, PgColumn>;

export interface ScheduledReportSpec<Task extends ScheduledTask, Run extends ScheduledRun, Deps> {
  tasks: TableOf<'id' | 'nextRunAt'>;
  runs: TableOf<'id' | 'taskId'>;
  /** Queue kinds: a task's scheduled occurrence, and one run (scheduled or "run now"). */
  kinds: { scheduled: string; run: string };
  nextRunAfter(task: Task, afterMs: number): number;
  /** The period whose end is the occurrence at `scheduledFor`; null when there is none to report. */
  periodEndedAt(task: Task, scheduledFor: number): Period | null;
  /** The file a run made before (a retry after a fault reuses it), or null. */
  storedBody(deps: Deps, run: Run): Promise<Buffer | null>;
  /** Makes and stores a run's file; the run as updated, with its file name and link key. */
  makeFile(deps: Deps, task: Task, run: Run, now: Date): Promise<{ run: Run; body: Buffer }>;
  /** The message of a refusal (the run fails with it), or null for a fault worth retrying. */
  refusal(err: unknown, language: WireLanguage): string | null;
  mail: {
    subject: MessageKey;
    attached: MessageKey;
    link: MessageKey;
    /** Path of the signed download of a file too large to attach. */
    linkPath: string;
    /** `<prefix>-<runId>-<address>` is each mail's Message-ID. */
    messageIdPrefix: string;
    /** Logged when the file is made but SMTP_URL is not set. */
    unsent: string;
    /** Members the task also mails (those still in the company with an address). */
    memberIds(task: Task): number[];
    contentType(run: Run): string;
  };
}

/** Only AppError is a refusal. */
export function appErrorRefusal(err: unknown, language: WireLanguage): string | null {
  return err instanceof AppError ? translate(err.code, language, err.params) : null;
}

/** AppError or a failed input check (an export's own rule or limit) is a refusal. */
export function refusalOrInvalid(err: unknown, language: WireLanguage): string | null {
  if (err instanceof AppError) return translate(err.code, language, err.params);
  if (!(err instanceof ZodError)) return null;
  const issue = err.issues[0];
  const key = issue?.message ?? '';
  return key in messages
    ? translate(key as MessageKey, language, { field: fieldLabel(issue!.path.join('.'), language) })
    : key;
}

/** E-mail addresses of a task: its own, and those of the members named still in the company. */
async function addresses(db: Db, companyId: number, memberIds: number[], emails: string[]) {
  const members = memberIds.length
    ? await db
        .select({ email: users.email })
        .from(users)
        .innerJoin(
          companyMembers,
          and(eq(companyMembers.userId, users.id), eq(companyMembers.companyId, companyId)),
        )
        .where(and(inArray(users.id, memberIds), isNotNull(users.email)))
    : [];
  return [...new Set([...emails, ...members.map((m) => m.email!)].map((e) => e.toLowerCase()))];
}

/** The queue of one kind of scheduled report: its jobs, and their handlers. */
export function scheduledReportJobs<
  Task extends ScheduledTask,
  Run extends ScheduledRun,
  Deps extends ScheduledReportDeps,
>(spec: ScheduledReportSpec<Task, Run, Deps>) {
  const { tasks, runs, kinds } = spec;

  /** The queue job of a task's occurrence at `at`; the key makes scheduling it twice harmless. */
  function scheduleOccurrence(db: Queryable, taskId: number, at: number) {
    return enqueueJob(
      db,
      kinds.scheduled,
      { taskId, scheduledFor: at },
      { runAt: new Date(at), key: `${kinds.scheduled}:${taskId}:${at}` },
    );
  }

  /** The queue job of one run, due at `now` (the queue's clock). */
  function enqueueRun(db: Queryable, runId: number, now: Date) {
    return enqueueJob(db, kinds.run, { runId }, { runAt: now, key: `${kinds.run}:${runId}` });
  }

  /**
   * A task's occurrence fell due: one run for the period that just ended, and the next occurrence
   * scheduled, in one transaction (a crash after it leaves both jobs queued, before it neither).
   * The next is the first after now, not after the missed one, so a server that was down over
   * several occurrences catches up with one run, not a burst. A job for an instant the task no
   * longer holds (edited or deleted since) does nothing.
   */
  async function onScheduled(deps: Deps, taskId: number, scheduledFor: number, now: Date) {
    const runId = await deps.db.transaction(async (tx) => {
      const [task] = (await tx
        .select()
        .from(tasks)
        .where(and(eq(tasks.id, taskId), eq(tasks.nextRunAt, new Date(scheduledFor))))
        .for('update')) as unknown as Task[];
      if (!task) return null;
      const next = spec.nextRunAfter(task, Math.max(now.getTime(), scheduledFor));
      await tx
        .update(tasks)
        .set({ nextRunAt: new Date(next) } as never)
        .where(eq(tasks.id, taskId));
      await scheduleOccurrence(tx, taskId, next);
      const period = spec.periodEndedAt(task, scheduledFor);
      if (!period) return null;
      const [run] = (await tx
        .insert(runs)
        .values({
          companyId: task.companyId,
          taskId,
          scheduledFor: new Date(scheduledFor),
          periodStart: new Date(period.startTime),
          periodEnd: new Date(period.endTime),
        } as never)
        .onConflictDoNothing()
        .returning({ id: runs.id })) as { id: number }[];
      if (run) await enqueueRun(tx, run.id, now);
      return run?.id ?? null;
    });
    if (runId) deps.queue.wake();
  }

  /** The file attached up to REPORT_ATTACH_MAX_BYTES, above it a link signed with the run's key. */
  async function mailRun(deps: Deps, task: Task, run: Run, body: Buffer, now: number) {
    const { mail } = spec;
    if (!deps.mailer) {
      deps.log.warn({ run: run.id }, mail.unsent);
      return;
    }
    const to = await addresses(deps.db, task.companyId, mail.memberIds(task), task.emails);
    if (to.length === 0) return;
    const lang = task.language;
    const day = (d: Date) => formatInstant(d.getTime(), task.timeZone).slice(0, 16);
    const params = {
      name: task.name,
      period: `${day(run.periodStart)} - ${day(run.periodEnd)} (${task.timeZone})`,
      file: run.fileName!,
      size: formatBytes(body.length),
    };
    const subject = translate(mail.subject, lang, params);
    let text: string;
    let attachments: { filename: string; content: Buffer; contentType: string }[] | undefined;
    if (body.length <= deps.attachMaxBytes) {
      text = translate(mail.attached, lang, params);
      attachments = [{ filename: run.fileName!, content: body, contentType: mail.contentType(run) }];
    } else {
      const expires = now + REPORT_LINK_TTL_MS;
      const url = `${deps.baseUrl}${mail.linkPath}/${signLinkToken(run.linkKey!, run.id, expires)}`;
      text = translate(mail.link, lang, {
        ...params,
        url,
        expires: `${formatInstant(expires, task.timeZone)} (${task.timeZone})`,
      });
    }
    // One mail per address: recipients do not learn each other's addresses.
    for (const address of to) {
      await deps.mailer.send({
        to: address,
        subject,
        text,
        attachments,
        messageId: `<${mail.messageIdPrefix}-${run.id}-${address}>`,
      });
    }
  }

  /**
   * Makes, stores and e-mails one run's file. A refusal ends the run as failed with its message;
   * anything else (disk, SMTP) is thrown so the queue retries, and a retry reuses the file stored.
   */
  async function executeRun(deps: Deps, runId: number, now: Date) {
    const { db } = deps;
    const [row] = (await db
      .select({ run: runs, task: tasks })
      .from(runs)
      .innerJoin(tasks, eq(tasks.id, runs.taskId))
      .where(eq(runs.id, runId))) as unknown as { run: Run; task: Task }[];
    if (!row || row.run.status === 'done') return;
    const { task } = row;
    let run = row.run;
    const started = Date.now();
    await db
      .update(runs)
      .set({ status: 'running', error: null } as never)
      .where(eq(runs.id, runId));
    try {
      let body = await spec.storedBody(deps, run);
      if (!body) ({ run, body } = await spec.makeFile(deps, task, run, now));
      await mailRun(deps, task, run, body, now.getTime());
      await db
        .update(runs)
        .set({ status: 'done', durationMs: Date.now() - started } as never)
        .where(eq(runs.id, runId));
    } catch (err) {
      const refusal = spec.refusal(err, task.language);
      const error = refusal ?? (err instanceof Error ? err.message : String(err));
      await db
        .update(runs)
        .set({ status: 'failed', error, durationMs: Date.now() - started } as never)
        .where(eq(runs.id, runId));
      if (refusal === null) throw err;
    }
  }

  /** Registers the two kinds on the server's one queue (app.ts). */
  function register(deps: Deps) {
    deps.queue.handle(kinds.scheduled, (job, now) => {
      const { taskId, scheduledFor } = job.payload as { taskId: number; scheduledFor: number };
      return onScheduled(deps, taskId, scheduledFor, now);
    });
    deps.queue.handle(kinds.run, (job, now) =>
      executeRun(deps, (job.payload as { runId: number }).runId, now),
    );
  }

  return { scheduleOccurrence, enqueueRun, register };
}
