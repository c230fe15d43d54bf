import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendAnswer } from '../../lib/answer-cache';
import { ok } from '../../lib/envelope';
import { requireCompany } from '../../plugins/auth';
import { countUnreadNotices } from '../notices/notices.service';
import { getUserInfo } from './users.service';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/user/userInfo', async (request, reply) =>
    sendAnswer(request, reply, () => getUserInfo(app.db, request.auth)),
  );

  /** The unread count behind the top-bar badge. */
  app.post('/api/user/newUserNotice', async (request) =>
    ok({ count: await countUnreadNotices(app.db, requireCompany(request.auth), request.auth.userId) }),
  );
};
