import path from 'node:path';
import { eq } from 'drizzle-orm';
import { translate } from '../../i18n/messages';
import { recordReportFile } from '../reports/report-files.service';
import { newLinkKey } from '../scheduled-reports/run-link';
import {
  refusalOrInvalid,
  type ScheduledReportDeps,
  scheduledReportJobs,
} from '../scheduled-reports/scheduled-run';
import { buildReportFile } from './report-file';
import { readRunFile } from './report-store';
import { type ReportRunRow, type ReportTaskRow, reportRuns, reportTasks } from './report-tasks.table';
import { nextRunAfter, periodEndedAt } from './schedule';

/** Queue kinds: a task's scheduled occurrence, and one run (scheduled or "run now"). */
export const SCHEDULED_KIND = 'report.scheduled';
export const RUN_KIND = 'report.run';
/** Path of the signed download of a backup too large to attach (the link is the credential). */
export const REPORT_LINK_PATH = '/report-file';

export type ReportDeps = ScheduledReportDeps;

/**
 * Backup tasks on the one scheduled-report mechanism (scheduled-reports/scheduled-run.ts). A
 * run's file is made as the task's owner (report-file.ts) and kept as a generated file of the
 * company (data centre, verifyReport), under `reports/` in the file store. A refusal (too many rows, owner
 * without the right, an input the export refuses) ends the run as failed with its message.
 */
const jobs = scheduledReportJobs<ReportTaskRow, ReportRunRow, ReportDeps>({
  tasks: reportTasks,
  runs: reportRuns,
  kinds: { scheduled: SCHEDULED_KIND, run: RUN_KIND },
  nextRunAfter: (task, after) => nextRunAfter(task.frequency, task.timeZone, after),
  periodEndedAt: (task, at) => periodEndedAt(task.frequency, task.timeZone, at),
  storedBody: async (deps, run) => (run.storedName ? readRunFile(deps.files, run.storedName) : null),
  async makeFile(deps, task, run) {
    const { db } = deps;
    const file = await buildReportFile(db, task, {
      startTime: run.periodStart.getTime(),
      endTime: run.periodEnd.getTime(),
    });
    const { storedPath } = await recordReportFile(db, deps.files, {
      companyId: task.companyId,
      kind: `backup.${task.type}`,
      fileName: file.fileName,
      format: task.format,
      bytes: file.body,
      fingerprint: file.fingerprint,
      generatedBy: null,
      generatedByName: translate('REPORT_GENERATED_BY', task.language, { name: task.name }),
    });
    const [stored] = await db
      .update(reportRuns)
      .set({
        storedName: path.basename(storedPath),
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.body.length,
        linkKey: newLinkKey(),
      })
      .where(eq(reportRuns.id, run.id))
      .returning();
    return { run: stored!, body: file.body };
  },
  refusal: refusalOrInvalid,
  mail: {
    subject: 'REPORT_MAIL_SUBJECT',
    attached: 'REPORT_MAIL_ATTACHED',
    link: 'REPORT_MAIL_LINK',
    linkPath: REPORT_LINK_PATH,
    messageIdPrefix: 'report-run',
    unsent: 'backup file made but not e-mailed: SMTP_URL is not set',
    memberIds: (task) => task.recipientIds,
    contentType: (run) => run.contentType!,
  },
});

/** The queue job of a task's occurrence at `at`; the key makes scheduling it twice harmless. */
export const scheduleOccurrence = jobs.scheduleOccurrence;
/** The queue job of one run, due at `now` (the queue's clock). */
export const enqueueRun = jobs.enqueueRun;
/** Registers the two kinds on the server's one queue (app.ts). */
export const registerReportJobs = jobs.register;
