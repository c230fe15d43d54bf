import { AccountRequest, CheckCodeRequest, LoginRequest, ResetPasswordRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import type { Mailer } from '../notify/mailer';
import { login, logout } from './auth.service';
import { loginAnswer, loginSecurityRoutes } from './login-security.routes';
import { checkResetCode, resetPassword, sendAccountCode, verifyAccount } from './recovery.service';

export interface AuthRoutesOptions {
  sessionIdleMs: number;
  loginRateLimitPerMinute: number;
  codeRateLimitPerMinute: number;
  mailer: Mailer | null;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const codeLimit = {
    public: true,
    rateLimit: { max: options.codeRateLimitPerMinute, timeWindow: '1 minute' },
  };

  app.post(
    '/api/doLogin',
    {
      config: { public: true, rateLimit: { max: options.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: LoginRequest },
    },
    async (request) => {
      const outcome = await login(
        app.db,
        options.mailer,
        {
          ...request.body,
          ip: request.ip ?? '',
          userAgent: request.headers['user-agent'],
          language: request.language,
        },
        options.sessionIdleMs,
      );
      return loginAnswer(outcome, request.language);
    },
  );

  await app.register(loginSecurityRoutes, options);

  app.post('/api/logout', async (request) => {
    await logout(app.db, request.auth.sessionId);
    return ok(null, translate('LOGGED_OUT', request.language));
  });

  /** A code for verification-code login (doLogin type 2). */
  app.post('/api/sendCode', { config: codeLimit, schema: { body: AccountRequest } }, async (request) => {
    const { channel } = await sendAccountCode(
      app.db,
      options.mailer,
      request.body.account,
      'login',
      request.language,
    );
    return ok(
      { channel },
      translate(channel === 'email' ? 'CODE_SENT_EMAIL' : 'CODE_SENT_SMS', request.language),
    );
  });

  // Password recovery in three steps (spec section 2): fill account, verify, reset.
  app.post('/api/verifyAccount', { config: codeLimit, schema: { body: AccountRequest } }, async (request) =>
    ok(await verifyAccount(app.db, request.body.account)),
  );
  app.post(
    '/api/getAccountCode',
    { config: codeLimit, schema: { body: AccountRequest } },
    async (request) => {
      const { channel } = await sendAccountCode(
        app.db,
        options.mailer,
        request.body.account,
        'reset',
        request.language,
      );
      return ok(
        { channel },
        translate(channel === 'email' ? 'CODE_SENT_EMAIL' : 'CODE_SENT_SMS', request.language),
      );
    },
  );
  app.post('/api/checkCode', { config: codeLimit, schema: { body: CheckCodeRequest } }, async (request) =>
    ok(await checkResetCode(app.db, request.body.account, request.body.code)),
  );
  app.post(
    '/api/resetPassword',
    { config: codeLimit, schema: { body: ResetPasswordRequest } },
    async (request) => {
      await resetPassword(app.db, request.body);
      return ok(null, translate('PASSWORD_RESET', request.language));
    },
  );
};
