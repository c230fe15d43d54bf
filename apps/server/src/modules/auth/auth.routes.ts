import { LoginRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import { loginWithPassword, logout } from './auth.service';

export interface AuthRoutesOptions {
  sessionIdleMs: number;
  loginRateLimitPerMinute: number;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  app.post(
    '/api/doLogin',
    {
      config: {
        public: true,
        rateLimit: { max: options.loginRateLimitPerMinute, timeWindow: '1 minute' },
      },
      schema: { body: LoginRequest },
    },
    async (request) =>
      ok(await loginWithPassword(app.db, { ...request.body, ip: request.ip ?? '' }, options.sessionIdleMs)),
  );

  app.post('/api/logout', async (request) => {
    await logout(app.db, request.auth.sessionId);
    return ok(null, translate('LOGGED_OUT', request.language));
  });
};
