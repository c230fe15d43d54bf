import { GetCodeRequest, ModifyInformationRequest, RegisterAccountRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { normaliseAccount } from '../auth/auth.service';
import type { Mailer } from '../notify/mailer';
import { getPersonalInfo } from '../profile/profile.service';
import { issueCode } from './codes.service';
import { isRegistered, modifyInformation, registerAccount } from './registration.service';

export const registrationRoutes: FastifyPluginAsyncZod<{
  mailer: Mailer | null;
  codeRateLimitPerMinute: number;
}> = async (app, options) => {
  app.post(
    '/api/register/getPhoneCode',
    {
      config: { public: true, rateLimit: { max: options.codeRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: GetCodeRequest },
    },
    async (request) => {
      const account = normaliseAccount(request.body.account);
      if (await isRegistered(app.db, account)) throw new AppError('ACCOUNT_EXISTS');
      const { channel } = await issueCode(app.db, options.mailer, account, 'register', request.language);
      return ok(
        { channel },
        translate(channel === 'email' ? 'CODE_SENT_EMAIL' : 'CODE_SENT_SMS', request.language),
      );
    },
  );

  app.post(
    '/api/register/registerAccount',
    {
      config: { public: true, rateLimit: { max: options.codeRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: RegisterAccountRequest },
    },
    async (request) =>
      ok(
        await registerAccount(app.db, request.body, request.language),
        translate('REGISTERED', request.language),
      ),
  );

  /** Signed in: the new user completes their name (and gender, e-mail or phone) after registering. */
  app.post(
    '/api/register/modifyInformation',
    { schema: { body: ModifyInformationRequest } },
    async (request) => {
      await modifyInformation(app.db, request, request.body);
      return ok(
        await getPersonalInfo(app.db, request.auth.userId, request.auth.companyId),
        translate('PROFILE_SAVED', request.language),
      );
    },
  );
};
