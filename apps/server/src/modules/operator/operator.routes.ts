import {
  GrantCreditsRequest,
  InventoryCsvRequest,
  OperatorCompanyIdRequest,
  PageInventoryRequest,
  PageOperatorCompaniesRequest,
  PageOperatorFeedbackRequest,
  PageSupportDevicesRequest,
  SetCompanyDisabledRequest,
  SetCompanyServicesRequest,
  SetSupportAccessRequest,
} from '@coldchain/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import {
  grantCompanyCredits,
  type OperatorActor,
  operatorCompanyDetail,
  pageOperatorCompanies,
  setCompanyDisabled,
  setCompanyServices,
} from './operator-companies.service';
import { pageOperatorFeedback } from './operator-feedback.service';
import { requireOperator } from './operator-guard';
import { importInventoryCsv, pageInventory, previewInventoryCsv } from './operator-inventory.service';
import { pageSupportDevices, setSupportAccess, supportAccessOf } from './support-access.service';

const operatorOf = (request: FastifyRequest): OperatorActor => ({
  userId: request.auth.userId,
  ip: request.ip ?? '',
});

/**
 * The operator console's calls (issue 17 item 6; API.md "Operator console"): platform operators
 * only, whatever company is in scope, and none of them shows a company's readings except the
 * support-access device list while the company's window is open.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const operatorOnly = { preHandler: requireOperator() };

  app.post(
    '/api/operator/pageCompanies',
    { ...operatorOnly, schema: { body: PageOperatorCompaniesRequest } },
    async (request) => ok(await pageOperatorCompanies(app.db, request.body)),
  );
  app.post(
    '/api/operator/companyDetail',
    { ...operatorOnly, schema: { body: OperatorCompanyIdRequest } },
    async (request) => ok(await operatorCompanyDetail(app.db, request.body.id)),
  );
  app.post(
    '/api/operator/setServices',
    { ...operatorOnly, schema: { body: SetCompanyServicesRequest } },
    async (request) => ok(await setCompanyServices(app.db, operatorOf(request), request.body)),
  );
  app.post(
    '/api/operator/grantCredits',
    { ...operatorOnly, schema: { body: GrantCreditsRequest } },
    async (request) => ok(await grantCompanyCredits(app.db, operatorOf(request), request.body)),
  );
  app.post(
    '/api/operator/setCompanyDisabled',
    { ...operatorOnly, schema: { body: SetCompanyDisabledRequest } },
    async (request) =>
      ok(await setCompanyDisabled(app.db, operatorOf(request), request.body.id, request.body.disabled)),
  );
  app.post(
    '/api/operator/previewInventory',
    { ...operatorOnly, schema: { body: InventoryCsvRequest } },
    async (request) => ok(await previewInventoryCsv(app.db, request.body.csv, request.language)),
  );
  app.post(
    '/api/operator/importInventory',
    { ...operatorOnly, schema: { body: InventoryCsvRequest } },
    async (request) =>
      ok(await importInventoryCsv(app.db, operatorOf(request), request.body.csv, request.language)),
  );
  app.post(
    '/api/operator/pageInventory',
    { ...operatorOnly, schema: { body: PageInventoryRequest } },
    async (request) => ok(await pageInventory(app.db, request.body)),
  );
  app.post(
    '/api/operator/pageFeedback',
    { ...operatorOnly, schema: { body: PageOperatorFeedbackRequest } },
    async (request) => ok(await pageOperatorFeedback(app.db, request.body)),
  );
  app.post(
    '/api/operator/pageSupportDevices',
    { ...operatorOnly, schema: { body: PageSupportDevicesRequest } },
    async (request) => ok(await pageSupportDevices(app.db, operatorOf(request), request.body)),
  );

  // The company's side: its administrator opens or closes the support window (org:edit to reach
  // the call, the administrator flag to use it: the window opens the whole company).
  app.post(
    '/api/company/setSupportAccess',
    { preHandler: requirePermission('org:edit'), schema: { body: SetSupportAccessRequest } },
    async (request) =>
      ok(await setSupportAccess(app.db, actorOf(request), request.auth.isAdmin, request.body.until)),
  );
  app.post(
    '/api/company/supportAccessStatus',
    { preHandler: requirePermission('org:view') },
    async (request) => ok(await supportAccessOf(app.db, requireCompany(request.auth))),
  );
};
