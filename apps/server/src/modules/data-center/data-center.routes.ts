import { PageReportFilesRequest, ReportFileIdRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import type { FileStore } from '../files/store/store';
import { fileDownload, pageFiles } from './data-center.service';

/**
 * Data centre (docs/API.md "Data centre"): the company's generated files. Both calls need
 * `report:view`; each file is further limited by the right to its data and the caller's
 * department scope (data-center.service.ts, visibleFiles). Checking a printed copy is the existing
 * `/api/report/verifyReport`.
 */
export const dataCenterRoutes: FastifyPluginAsyncZod<{ files: FileStore }> = async (app, { files }) => {
  const canView = { preHandler: requirePermission('report:view') };

  app.post(
    '/api/dataCenter/pageFiles',
    { ...canView, schema: { body: PageReportFilesRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await pageFiles(app.db, request.auth, request.body));
    },
  );

  /** The raw file, streamed (not an envelope, like every export); errors still come as envelopes. */
  app.post(
    '/api/dataCenter/downloadFile',
    { ...canView, schema: { body: ReportFileIdRequest } },
    async (request, reply) => {
      requireCompany(request.auth);
      const file = await fileDownload(app.db, request.auth, files, request.body.id);
      // The data centre's own headers first: sendDownload sends the answer.
      reply.header('X-Report-File-Sha256', file.sha256);
      return sendDownload(reply, {
        body: file.body,
        size: file.size,
        filename: file.fileName,
        contentType: file.contentType,
      });
    },
  );
};
