import { ExportStatisticsRequest, StatisticsRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { companyStatistics } from './statistics.service';
import { exportStatistics } from './statistics-export';

/**
 * The statistics page (docs/decisions.md "Statistics (issue 15)"): `statistics:view` opens it;
 * each section also needs the right over its data (alarm, device, billing), else it is null.
 */
export const statisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('statistics:view') };

  app.post(
    '/api/statistics/companyStatistics',
    { ...canView, schema: { body: StatisticsRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await companyStatistics(app.db, request.auth, request.body));
    },
  );
  app.post(
    '/api/statistics/exportStatistics',
    { ...canView, schema: { body: ExportStatisticsRequest } },
    async (request, reply) => {
      const file = await exportStatistics(
        app.db,
        actorOf(request),
        request.auth,
        request.body,
        request.language,
      );
      return sendDownload(reply, { body: file.body, filename: file.filename, contentType: file.contentType });
    },
  );
};
