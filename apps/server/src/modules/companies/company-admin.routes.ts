import { ChangeOrganizeNameRequest, ChartStatisticsRequest, OrgIdRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { sendAnswer } from '../../lib/answer-cache';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany } from '../../plugins/auth';
import { leaveCompany, renameCompany } from './company-admin.service';
import { alarmChart, companyDataInfo } from './home-overview';

/** Company management and the home page's company figures (spec sections 3 and 7). */
export const companyAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/user/changeOrganizeName',
    { schema: { body: ChangeOrganizeNameRequest } },
    async (request) => {
      await renameCompany(app.db, request.auth, actorOf(request), request.body);
      return ok(null, translate('COMPANY_RENAMED', request.language));
    },
  );
  // `id` is the company to leave; it need not be the one in scope.
  app.post('/api/user/dropOutOrganize', { schema: { body: OrgIdRequest } }, async (request) => {
    await leaveCompany(app.db, request.auth, request.ip ?? '', request.body.id);
    return ok(null, translate('LEFT_COMPANY', request.language));
  });
  // The home page: every member may open it; what they see follows their rights.
  app.post('/api/userOrganize/companyDataInfo', async (request, reply) => {
    requireCompany(request.auth);
    return sendAnswer(request, reply, () => companyDataInfo(app.db, request.auth));
  });
  app.post(
    '/api/userOrganize/indexChartForStatistics',
    { schema: { body: ChartStatisticsRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await alarmChart(app.db, request.auth, request.body.days));
    },
  );
};
