import {
  PageReportRunsRequest,
  PageReportTasksRequest,
  ReportIdRequest,
  RunReportTaskRequest,
  SaveReportTaskRequest,
} from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { idFromWire } from '../../lib/ids';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { contentDisposition } from '../audit/export-file';
import type { JobQueue } from '../jobs/job-queue';
import { linkValid, parseLinkToken, REPORT_LINK_PATH } from './report-link';
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

function sendFile(reply: FastifyReply, file: { body: Buffer; fileName: string; contentType: string }) {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', contentDisposition(file.fileName))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'no-store')
    .send(file.body);
}

/**
 * Data report backup tasks (API.md "Reports"). Listing runs and downloading needs `backup:view`;
 * saving, deleting and "run now" need `backup:edit`. Everything is of the company in scope; the
 * devices a task names must be ones the caller sees (department scope and grants).
 */
export const reportTaskRoutes: FastifyPluginAsyncZod<{ queue: JobQueue; uploadDir: string }> = async (
  app,
  { queue, uploadDir },
) => {
  const canView = { preHandler: requirePermission('backup:view') };
  const canEdit = { preHandler: requirePermission('backup:edit') };

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
      return sendFile(reply, await runFile(app.db, uploadDir, where));
    },
  );

  /**
   * The link of a backup e-mail too large to attach: no login, the signed token is the right to
   * this one file until it expires (report-link.ts). Anything wrong is a plain 404.
   */
  app.get<{ Params: { token: string } }>(`${REPORT_LINK_PATH}/:token`, async (request, reply) => {
    const token = parseLinkToken(request.params.token);
    if (!token) throw new AppError('NOT_FOUND', {}, 404);
    const [run] = await app.db
      .select({ linkKey: reportRuns.linkKey })
      .from(reportRuns)
      .where(eq(reportRuns.id, token.runId));
    if (
      !run?.linkKey ||
      !linkValid(run.linkKey, token.runId, token.expires, token.sig, queue.now().getTime())
    )
      throw new AppError('NOT_FOUND', {}, 404);
    return sendFile(reply, await runFile(app.db, uploadDir, eq(reportRuns.id, token.runId)));
  });
};
