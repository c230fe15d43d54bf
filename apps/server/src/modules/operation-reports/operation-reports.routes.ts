import {
  OperationIdRequest,
  PageOperationRunsRequest,
  PageOperationTasksRequest,
  RunOperationTaskRequest,
  SaveOperationTaskRequest,
} from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { idFromWire } from '../../lib/ids';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { requireService } from '../companies/service-gate';
import type { FileStore } from '../files/store/store';
import type { JobQueue } from '../jobs/job-queue';
import { runLinkRoute } from '../scheduled-reports/run-link.routes';
import {
  deleteOperationTask,
  operationRunFigures,
  operationRunFile,
  pageOperationRuns,
  pageOperationTasks,
  runOperationTask,
  saveOperationTask,
  visibleOperationRuns,
} from './operation-reports.service';
import { operationReportRuns } from './operation-reports.table';
import { OPERATION_LINK_PATH } from './operation-run';

/**
 * Operation report tasks (docs/api/operation-reports.md): `report:view` lists tasks and runs,
 * reads a report's figures and downloads its PDF; `report:edit` saves, deletes and runs tasks.
 * A member of a department sees the tasks of their department and those below it.
 */
export const operationReportRoutes: FastifyPluginAsyncZod<{ queue: JobQueue; files: FileStore }> = async (
  app,
  { queue, files },
) => {
  // The supplier's operation report service gates every call (modules/companies/service-gate.ts).
  const service = requireService('service:operationReport');
  const canView = { preHandler: [requirePermission('report:view'), service] };
  const canEdit = { preHandler: [requirePermission('report:edit'), service] };

  app.post(
    '/api/operationReport/saveTask',
    { ...canEdit, schema: { body: SaveOperationTaskRequest } },
    async (request) =>
      ok(
        await saveOperationTask(
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
  app.post(
    '/api/operationReport/deleteTask',
    { ...canEdit, schema: { body: OperationIdRequest } },
    async (request) => {
      await deleteOperationTask(app.db, request.auth, actorOf(request), request.body.id);
      return ok(null);
    },
  );
  app.post(
    '/api/operationReport/pageTasks',
    { ...canView, schema: { body: PageOperationTasksRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await pageOperationTasks(app.db, request.auth, request.body));
    },
  );
  app.post(
    '/api/operationReport/runTask',
    { ...canEdit, schema: { body: RunOperationTaskRequest } },
    async (request) =>
      ok(await runOperationTask(app.db, queue, request.auth, actorOf(request), request.body, queue.now())),
  );
  app.post(
    '/api/operationReport/pageRuns',
    { ...canView, schema: { body: PageOperationRunsRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await pageOperationRuns(app.db, request.auth, request.body));
    },
  );
  app.post(
    '/api/operationReport/runFigures',
    { ...canView, schema: { body: OperationIdRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await operationRunFigures(app.db, request.auth, request.body.id));
    },
  );
  /** The PDF itself, not an envelope (like every export); errors still come as envelopes. */
  app.post(
    '/api/operationReport/downloadRun',
    { ...canView, schema: { body: OperationIdRequest } },
    async (request, reply) => {
      requireCompany(request.auth);
      const where = and(
        eq(operationReportRuns.id, idFromWire(request.body.id) ?? -1),
        visibleOperationRuns(request.auth),
      )!;
      return sendDownload(reply, await operationRunFile(app.db, files, where));
    },
  );

  /** The link of a report e-mail too large to attach (scheduled-reports/run-link.routes.ts). */
  await app.register(runLinkRoute, {
    path: OPERATION_LINK_PATH,
    runs: operationReportRuns,
    queue,
    file: (runId) => operationRunFile(app.db, files, sql`${operationReportRuns.id} = ${runId}`),
  });
};
