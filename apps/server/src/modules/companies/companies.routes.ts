import { CreateCompanyRequest, Industries, SwitchCompanyRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import {
  createCompanyForUser,
  listUserCompanies,
  switchUserCompany,
  userPowersJson,
} from './companies.service';

export const companyRoutes: FastifyPluginAsyncZod<{ starterCredits: number }> = async (app, options) => {
  app.post('/api/index/getUserCompanys', async (request) =>
    ok(await listUserCompanies(app.db, request.auth)),
  );

  app.post('/api/index/switchUserCompany', { schema: { body: SwitchCompanyRequest } }, async (request) => {
    await switchUserCompany(app.db, request.auth, request.body.id);
    return ok(null, translate('COMPANY_SWITCHED', request.language));
  });

  app.post('/api/index/getUserPowers', async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(userPowersJson(request.auth)),
  );

  app.post('/api/user/createCompany', { schema: { body: CreateCompanyRequest } }, async (request) =>
    ok(
      await createCompanyForUser(app.db, request.auth.userId, request.ip ?? '', {
        ...request.body,
        starterCredits: options.starterCredits,
      }),
      translate('COMPANY_CREATED', request.language),
    ),
  );

  app.post('/api/user/industryList', { config: { public: true } }, async (request) =>
    ok(Industries.map((i) => ({ value: i.value, label: request.language === 'cn' ? i.cn : i.en }))),
  );
};
