import { ExportProgressRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { exportProgressOf } from './export-progress.service';

/**
 * `/api/export/progress` (docs/API.md "Export progress"): any signed-in user, about their own
 * exports only, so it needs no right of its own: the export call itself was checked.
 */
export const exportProgressRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/export/progress', { schema: { body: ExportProgressRequest } }, async (request) =>
    ok(await exportProgressOf(app.db, request.auth.userId, request.body.progressId)),
  );
};
