import {
  PageReportRunsRequest,
  PageReportTasksRequest,
  ReportIdRequest,
  RunReportTaskRequest,
  SaveReportTaskRequest,
} from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { idFromWire } from '../../lib/ids';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { requireService } from '../companies/service-gate';
import type { FileStore } from '../files/store/store';
import type { JobQueue } from '../jobs/job-queue';
import { runLinkRoute } from '../scheduled-reports/run-link.routes';
import { REPORT_LINK_PATH } from './report-run';
import {
  deleteTask,
  pageRuns,
  pageTasks,
  runFile,
  runTask,
  saveTask,
  visibleTasks,
} from './report-tasks.service';
import { reportRuns } from './report-tasks.table';

/**
 * Data report backup tasks (API.md "Reports"). Listing runs and downloading needs `backup:view`;
 * saving, deleting and "run now" need `backup:edit`. Everything is of the company in scope; the
 * devices a task names must be ones the caller sees (department scope and grants).
 */
export const reportTaskRoutes: FastifyPluginAsyncZod<{ queue: JobQueue; files: FileStore }> = async (
  app,
  { queue, files },
) => {
  // The supplier's data backup service gates every call (modules/companies/service-gate.ts).
  const service = requireService('service:dataBackup');
  const canView = { preHandler: [requirePermission('backup:view'), service] };
  const canEdit = { preHandler: [requirePermission('backup:edit'), service] };

  app.post('/api/report/saveTask', { ...canEdit, schema: { body: SaveReportTaskRequest } }, async (request) =>
    ok(
      await saveTask(
        app.db,
        queue,
        request.auth,
        actorOf(request),
        request.body,
        request.language,
        queue.now(),
      ),
    ),
  );
  app.post('/api/report/deleteTask', { ...canEdit, schema: { body: ReportIdRequest } }, async (request) => {
    await deleteTask(app.db, request.auth, actorOf(request), request.body.id);
    return ok(null);
  });
  app.post(
    '/api/report/pageTasks',
    { ...canView, schema: { body: PageReportTasksRequest } },
    async (request) => ok(await pageTasks(app.db, request.auth, request.body)),
  );
  app.post('/api/report/runTask', { ...canEdit, schema: { body: RunReportTaskRequest } }, async (request) =>
    ok(await runTask(app.db, queue, request.auth, actorOf(request), request.body, queue.now())),
  );
  app.post('/api/report/pageRuns', { ...canView, schema: { body: PageReportRunsRequest } }, async (request) =>
    ok(await pageRuns(app.db, request.auth, request.body)),
  );
  /** The raw file, not an envelope (like every export); errors still come as envelopes. */
  app.post(
    '/api/report/downloadRun',
    { ...canView, schema: { body: ReportIdRequest } },
    async (request, reply) => {
      requireCompany(request.auth);
      const where = and(eq(reportRuns.id, idFromWire(request.body.id)!), visibleTasks(request.auth))!;
      return sendDownload(reply, await runFile(app.db, files, where));
    },
  );

  /** The link of a backup e-mail too large to attach (scheduled-reports/run-link.routes.ts). */
  await app.register(runLinkRoute, {
    path: REPORT_LINK_PATH,
    runs: reportRuns,
    queue,
    file: (runId) => runFile(app.db, files, eq(reportRuns.id, runId)),
  });
};
