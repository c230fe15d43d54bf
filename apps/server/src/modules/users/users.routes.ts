import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { requireCompany } from '../../plugins/auth';
import { countUnreadNotices } from '../notices/notices.service';
import { getUserInfo } from './users.service';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/user/userInfo', async (request) => ok(await getUserInfo(app.db, request.auth)));

  /** The unread count behind the top-bar badge. */
  app.post('/api/user/newUserNotice', async (request) =>
    ok({ count: await countUnreadNotices(app.db, requireCompany(request.auth), request.auth.userId) }),
  );
};
