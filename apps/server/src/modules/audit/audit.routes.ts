import { PageLoginLogRequest, PageOperationLogRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { requireCompany, requirePermission } from '../../plugins/auth';
import { pageOperationLog, verifyAuditChain } from './audit.service';
import { pageLoginLog } from './login-log.service';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('audit:view') };

  app.post(
    '/api/audit/pageOperationLog',
    { ...canView, schema: { body: PageOperationLogRequest } },
    async (request) => ok(await pageOperationLog(app.db, requireCompany(request.auth), request.body)),
  );

  /** Recomputes the company's chain and points at any edited or missing entry. */
  app.post('/api/audit/verifyChain', canView, async (request) =>
    ok(await verifyAuditChain(app.db, requireCompany(request.auth))),
  );

  /** One's own login history: every user may see it. */
  app.post('/api/userLoginLog/pageUserLog', { schema: { body: PageLoginLogRequest } }, async (request) =>
    ok(await pageLoginLog(app.db, { userId: request.auth.userId }, request.body)),
  );

  /** Every login into the company, for auditors. */
  app.post(
    '/api/userLoginLog/auditPageUserLog',
    { ...canView, schema: { body: PageLoginLogRequest } },
    async (request) =>
      ok(await pageLoginLog(app.db, { companyId: requireCompany(request.auth) }, request.body)),
  );
};
