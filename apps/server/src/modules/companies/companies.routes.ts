import { SwitchCompanyRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import { getUserPowers, listUserCompanies, switchUserCompany } from './companies.service';

export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/index/getUserCompanys', async (request) =>
    ok(await listUserCompanies(app.db, request.auth)),
  );

  app.post('/api/index/switchUserCompany', { schema: { body: SwitchCompanyRequest } }, async (request) => {
    await switchUserCompany(app.db, request.auth, request.body.id);
    return ok(null, translate('COMPANY_SWITCHED', request.language));
  });

  app.post('/api/index/getUserPowers', async (request) => ok(getUserPowers(request.auth)));
};
