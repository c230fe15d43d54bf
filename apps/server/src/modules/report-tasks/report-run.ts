import path from 'node:path';
import type { WireLanguage } from '@coldchain/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ZodError } from 'zod';
import type { Db, Queryable } from '../../db/client';
import { fieldLabel, type MessageKey, messages, translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { formatInstant } from '../audit/export-file';
import { companyMembers } from '../companies/companies.table';
import { formatBytes } from '../files/file-store';
import { enqueueJob, type JobQueue } from '../jobs/job-queue';
import type { Mailer } from '../notify/mailer';
import { recordReportFile } from '../reports/report-files.service';
import { users } from '../users/users.table';
import { buildReportFile } from './report-file';
import { newLinkKey, REPORT_LINK_PATH, REPORT_LINK_TTL_MS, signLinkToken } from './report-link';
import { readReportFile } from './report-store';
import { type ReportRunRow, type ReportTaskRow, reportRuns, reportTasks } from './report-tasks.table';
import { nextRunAfter, periodEndedAt } from './schedule';

/** Queue kinds: a task's scheduled occurrence, and one run (scheduled or "run now"). */
export const SCHEDULED_KIND = 'report.scheduled';
export const RUN_KIND = 'report.run';

export interface ReportDeps {
  db: Db;
  queue: JobQueue;
  mailer: Mailer | null;
  log: FastifyBaseLogger;
  uploadDir: string;
  attachMaxBytes: number;
  /** Where links in e-mails point: PUBLIC_URL, else this server. */
  baseUrl: string;
}

/** The queue job of a task's occurrence at `at`; the key makes scheduling it twice harmless. */
export function scheduleOccurrence(db: Queryable, taskId: number, at: number) {
  return enqueueJob(
    db,
    SCHEDULED_KIND,
    { taskId, scheduledFor: at },
    { runAt: new Date(at), key: `${SCHEDULED_KIND}:${taskId}:${at}` },
  );
}

/** The queue job of one run, due at `now` (the queue's clock). */
export function enqueueRun(db: Queryable, runId: number, now: Date) {
  return enqueueJob(db, RUN_KIND, { runId }, { runAt: now, key: `${RUN_KIND}:${runId}` });
}

/**
 * A task's occurrence fell due: one run for the period that just ended, and the next occurrence
 * scheduled. The next is the first after now, not after the missed one, so a server that was
 * down over several occurrences catches up with one run, not a burst. A job for an instant the
 * task no longer holds (edited or deleted since) does nothing.
 */
async function onScheduled(deps: ReportDeps, taskId: number, scheduledFor: number, now: Date) {
  const runId = await deps.db.transaction(async (tx) => {
    const [task] = await tx
      .select()
      .from(reportTasks)
      .where(and(eq(reportTasks.id, taskId), eq(reportTasks.nextRunAt, new Date(scheduledFor))))
      .for('update');
    if (!task) return null;
    const next = nextRunAfter(task.frequency, task.timeZone, Math.max(now.getTime(), scheduledFor));
    await tx
      .update(reportTasks)
      .set({ nextRunAt: new Date(next) })
      .where(eq(reportTasks.id, taskId));
    const period = periodEndedAt(task.frequency, task.timeZone, scheduledFor);
    const [run] = await tx
      .insert(reportRuns)
      .values({
        companyId: task.companyId,
        taskId,
        scheduledFor: new Date(scheduledFor),
        periodStart: new Date(period.startTime),
        periodEnd: new Date(period.endTime),
      })
      .onConflictDoNothing()
      .returning({ id: reportRuns.id });
    // In the same transaction: a crash after it leaves both jobs queued, before it neither.
    await scheduleOccurrence(tx, taskId, next);
    if (run) await enqueueRun(tx, run.id, now);
    return run?.id ?? null;
  });
  if (runId) deps.queue.wake();
}

/** E-mail addresses of the task: its own, and those of recipients still in the company. */
async function recipientAddresses(db: Db, task: ReportTaskRow): Promise<string[]> {
  const members = task.recipientIds.length
    ? await db
        .select({ email: users.email })
        .from(users)
        .innerJoin(
          companyMembers,
          and(eq(companyMembers.userId, users.id), eq(companyMembers.companyId, task.companyId)),
        )
        .where(and(inArray(users.id, task.recipientIds), isNotNull(users.email)))
    : [];
  return [...new Set([...task.emails, ...members.map((m) => m.email!)].map((e) => e.toLowerCase()))];
}

async function mailRun(deps: ReportDeps, task: ReportTaskRow, run: ReportRunRow, body: Buffer, now: number) {
  if (!deps.mailer) {
    deps.log.warn({ run: run.id }, 'backup file made but not e-mailed: SMTP_URL is not set');
    return;
  }
  const to = await recipientAddresses(deps.db, task);
  if (to.length === 0) return;
  const lang = task.language;
  const day = (d: Date) => formatInstant(d.getTime(), task.timeZone).slice(0, 16);
  const params = {
    name: task.name,
    period: `${day(run.periodStart)} - ${day(run.periodEnd)} (${task.timeZone})`,
    file: run.fileName!,
    size: formatBytes(body.length),
  };
  const subject = translate('REPORT_MAIL_SUBJECT', lang, params);
  let text: string;
  let attachments: { filename: string; content: Buffer; contentType: string }[] | undefined;
  if (body.length <= deps.attachMaxBytes) {
    text = translate('REPORT_MAIL_ATTACHED', lang, params);
    attachments = [{ filename: run.fileName!, content: body, contentType: run.contentType! }];
  } else {
    const expires = now + REPORT_LINK_TTL_MS;
    const url = `${deps.baseUrl}${REPORT_LINK_PATH}/${signLinkToken(run.linkKey!, run.id, expires)}`;
    text = translate('REPORT_MAIL_LINK', lang, {
      ...params,
      url,
      expires: `${formatInstant(expires, task.timeZone)} (${task.timeZone})`,
    });
  }
  // One mail per address: recipients of a backup do not learn each other's addresses.
  for (const address of to) {
    await deps.mailer.send({
      to: address,
      subject,
      text,
      attachments,
      messageId: `<report-run-${run.id}-${address}>`,
    });
  }
}

/** The message of a refusal (an export's own rule or limit), or null for a fault worth retrying. */
function refusalText(err: unknown, language: WireLanguage): string | null {
  if (err instanceof AppError) return translate(err.code, language, err.params);
  if (!(err instanceof ZodError)) return null;
  const issue = err.issues[0];
  const key = issue?.message ?? '';
  return key in messages
    ? translate(key as MessageKey, language, { field: fieldLabel(issue!.path.join('.'), language) })
    : key;
}

/**
 * Makes, stores and e-mails one run's file. A refusal (too many rows, owner without the right)
 * ends the run as failed with its message; anything else (disk, SMTP) is thrown so the queue
 * retries, and a retry reuses the file already stored.
 */
async function executeRun(deps: ReportDeps, runId: number, now: Date) {
  const { db } = deps;
  const [row] = await db
    .select({ run: reportRuns, task: reportTasks })
    .from(reportRuns)
    .innerJoin(reportTasks, eq(reportTasks.id, reportRuns.taskId))
    .where(eq(reportRuns.id, runId));
  if (!row || row.run.status === 'done') return;
  const { task } = row;
  let run = row.run;
  const started = Date.now();
  await db.update(reportRuns).set({ status: 'running', error: null }).where(eq(reportRuns.id, runId));
  try {
    let body = run.storedName ? await readReportFile(deps.uploadDir, run.storedName) : null;
    if (!body) {
      const file = await buildReportFile(db, task, {
        startTime: run.periodStart.getTime(),
        endTime: run.periodEnd.getTime(),
      });
      body = file.body;
      // Kept as a generated file of the company (data centre, verifyReport), under UPLOAD_DIR/reports/.
      const { storedPath } = await recordReportFile(db, deps.uploadDir, {
        companyId: task.companyId,
        kind: `backup.${task.type}`,
        fileName: file.fileName,
        format: task.format,
        bytes: file.body,
        fingerprint: file.fingerprint,
        generatedBy: null,
        generatedByName: translate('REPORT_GENERATED_BY', task.language, { name: task.name }),
      });
      const storedName = path.basename(storedPath);
      const [stored] = await db
        .update(reportRuns)
        .set({
          storedName,
          fileName: file.fileName,
          contentType: file.contentType,
          size: file.body.length,
          linkKey: newLinkKey(),
        })
        .where(eq(reportRuns.id, runId))
        .returning();
      run = stored!;
    }
    await mailRun(deps, task, run, body, now.getTime());
    await db
      .update(reportRuns)
      .set({ status: 'done', durationMs: Date.now() - started })
      .where(eq(reportRuns.id, runId));
  } catch (err) {
    const refusal = refusalText(err, task.language);
    const error = refusal ?? (err instanceof Error ? err.message : String(err));
    await db
      .update(reportRuns)
      .set({ status: 'failed', error, durationMs: Date.now() - started })
      .where(eq(reportRuns.id, runId));
    if (refusal === null) throw err;
  }
}

/** Registers the two kinds on the server's one queue (app.ts). */
export function registerReportJobs(deps: ReportDeps) {
  deps.queue.handle(SCHEDULED_KIND, (job, now) => {
    const { taskId, scheduledFor } = job.payload as { taskId: number; scheduledFor: number };
    return onScheduled(deps, taskId, scheduledFor, now);
  });
  deps.queue.handle(RUN_KIND, (job, now) => executeRun(deps, (job.payload as { runId: number }).runId, now));
}
