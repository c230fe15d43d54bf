import { ScreenNoticeRequest, ScreenOverviewRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { requireCompany, requirePermission } from '../../plugins/auth';
import { listUserCompanies } from '../companies/companies.service';
import { requireService } from '../companies/service-gate';
import { listNotices } from '../notices/notices.service';
import { screenOverview } from './screen-overview';

/**
 * The full-screen dashboards' calls (docs/API.md "Data screens"). All need `data:view`, the right
 * that shows the data-screen shortcut; what they read is within the caller's department scope.
 */
export const datavRoutes: FastifyPluginAsyncZod = async (app) => {
  const dataView = requirePermission('data:view');
  // The dashboards' data is the supplier's data screen service (modules/companies/service-gate.ts).
  const dataScreen = requireService('service:dataScreen');

  /** The dashboard's company switcher: the caller's own memberships, as `/api/index/getUserCompanys`. */
  app.post('/api/datav/getUserCompanys', { preHandler: dataView }, async (request) =>
    ok(await listUserCompanies(app.db, request.auth)),
  );

  /** The dashboard's whole first paint in one statement (screen-overview.ts). */
  app.post(
    '/api/datav/screenOverview',
    { preHandler: [dataView, dataScreen], schema: { body: ScreenOverviewRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await screenOverview(app.db, request.auth, request.body));
    },
  );

  /** The dashboard's ticker: the caller's newest notices of the company in scope, newest first. */
  app.post(
    '/api/index/getNotice',
    { preHandler: dataView, schema: { body: ScreenNoticeRequest } },
    async (request) => {
      const companyId = requireCompany(request.auth);
      return ok(
        await listNotices(
          app.db,
          companyId,
          request.auth.userId,
          { pageNum: 1, pageSize: request.body.pageSize },
          request.language,
        ),
      );
    },
  );
};
