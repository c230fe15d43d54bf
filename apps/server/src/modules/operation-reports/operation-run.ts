import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { dayStamp } from '../audit/export-file';
import { companyMembers } from '../companies/companies.table';
import { loadMemberAccess } from '../org/access';
import { departments } from '../org/org.table';
import { renderPdf } from '../reports/pdf-writer';
import { readReportFile, recordReportFile } from '../reports/report-files.service';
import { reportFiles } from '../reports/report-files.table';
import { newLinkKey } from '../scheduled-reports/run-link';
import {
  appErrorRefusal,
  type ScheduledReportDeps,
  scheduledReportJobs,
} from '../scheduled-reports/scheduled-run';
import { type FiguresScope, operationFigures } from './operation-figures';
import { operationReportModel } from './operation-pdf';
import {
  type OperationRunRow,
  type OperationTaskRow,
  operationReportRuns,
  operationReportTasks,
} from './operation-reports.table';
import { nextRunAfter, periodEndedBy } from './operation-schedule';

/** Queue kinds: a task's scheduled occurrence, and one run (scheduled or "run now"). */
export const OPERATION_SCHEDULED_KIND = 'operationReport.scheduled';
export const OPERATION_RUN_KIND = 'operationReport.run';
/** Path of the signed download of a report too large to attach (the link is the credential). */
export const OPERATION_LINK_PATH = '/operation-report-file';

export interface OperationDeps extends ScheduledReportDeps {
  activationEnergyKj: number;
}

/**
 * The scope of a task, as long as its owner may still make reports of it: a member holding
 * `report:edit` whose department scope holds the task's department (the whole company for a
 * company task). Otherwise the run is refused, not retried.
 */
export async function taskScope(db: Db, task: OperationTaskRow): Promise<FiguresScope> {
  const [member] = await db
    .select()
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, task.companyId), eq(companyMembers.userId, task.ownerId)));
  if (!member) throw new AppError('REPORT_OWNER_GONE');
  const access = await loadMemberAccess(db, member);
  const [department] = task.departmentId
    ? await db
        .select({ id: departments.id, name: departments.name, path: departments.path })
        .from(departments)
        .where(and(eq(departments.id, task.departmentId), eq(departments.companyId, task.companyId)))
    : [];
  const seen = access.scopePath === null || department?.path.startsWith(access.scopePath) === true;
  if (!access.authTags.has('report:edit') || !seen) throw new AppError('OPERATION_OWNER_NO_RIGHT');
  return { companyId: task.companyId, department: department ?? null };
}

/**
 * Operation reports on the one scheduled-report mechanism (scheduled-reports/scheduled-run.ts):
 * the figures and the PDF are made once (a retry after an SMTP fault reuses them), kept among
 * the company's generated files, and mailed. Only an AppError (owner gone or without the right)
 * is a refusal.
 */
const jobs = scheduledReportJobs<OperationTaskRow, OperationRunRow, OperationDeps>({
  tasks: operationReportTasks,
  runs: operationReportRuns,
  kinds: { scheduled: OPERATION_SCHEDULED_KIND, run: OPERATION_RUN_KIND },
  nextRunAfter,
  periodEndedAt: periodEndedBy,
  async storedBody(deps, run) {
    if (!run.reportFileId) return null;
    const [file] = await deps.db
      .select({ storedPath: reportFiles.storedPath })
      .from(reportFiles)
      .where(eq(reportFiles.id, run.reportFileId));
    return file?.storedPath ? readReportFile(deps.files, file.storedPath) : null;
  },
  async makeFile(deps, task, run, now) {
    const { db } = deps;
    const scope = await taskScope(db, task);
    const figures = await operationFigures(
      db,
      scope,
      { startTime: run.periodStart.getTime(), endTime: run.periodEnd.getTime(), timeZone: task.timeZone },
      { now: now.getTime(), activationEnergyKj: deps.activationEnergyKj },
    );
    const generatedBy = translate('OPERATION_GENERATED_BY', task.language, { name: task.name });
    const pdf = await renderPdf(
      operationReportModel(figures, { taskName: task.name, generatedBy, language: task.language }),
    );
    const fileName = `operation-report-${dayStamp(figures.startTime, task.timeZone)}-${dayStamp(figures.endTime, task.timeZone)}.pdf`;
    const stored = await recordReportFile(db, deps.files, {
      companyId: task.companyId,
      kind: 'operation',
      fileName,
      format: 'pdf',
      bytes: pdf.bytes,
      fingerprint: pdf.fingerprint,
      generatedBy: null,
      generatedByName: generatedBy,
      generatedAt: new Date(figures.generatedAt),
    });
    const [updated] = await db
      .update(operationReportRuns)
      .set({ figures, reportFileId: stored.id, fileName, size: pdf.bytes.length, linkKey: newLinkKey() })
      .where(eq(operationReportRuns.id, run.id))
      .returning();
    return { run: updated!, body: pdf.bytes };
  },
  refusal: appErrorRefusal,
  mail: {
    subject: 'OPERATION_MAIL_SUBJECT',
    attached: 'OPERATION_MAIL_ATTACHED',
    link: 'OPERATION_MAIL_LINK',
    linkPath: OPERATION_LINK_PATH,
    messageIdPrefix: 'operation-report',
    unsent: 'operation report made but not e-mailed: SMTP_URL is not set',
    memberIds: (task) => task.notifierIds,
    contentType: () => 'application/pdf',
  },
});

/** The queue job of a task's occurrence at `at`; the key makes scheduling it twice harmless. */
export const scheduleOperationOccurrence = jobs.scheduleOccurrence;
export const enqueueOperationRun = jobs.enqueueRun;
/** Registers the two kinds on the server's one queue (app.ts). */
export const registerOperationReportJobs = jobs.register;
