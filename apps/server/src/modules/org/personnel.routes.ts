import { AssignRoleRequest, MoveUserRequest, PageUsersRequest, RemoveUserRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { assignRole, memberOptions, moveUser, pageUsers, removeUser } from './personnel.service';

/** `/api/personnel/*`: the people of the caller's departments (spec section 6). */
export const personnelRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('user:view') };
  const canEdit = { preHandler: requirePermission('user:edit') };

  app.post(
    '/api/personnel/pageUsers',
    { ...canView, schema: { body: PageUsersRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await pageUsers(app.db, request.auth, request.body));
    },
  );
  // Any member: notifier and person-in-charge pickers need names, not the personnel rights.
  app.post('/api/personnel/memberOptions', async (request) => {
    requireCompany(request.auth);
    return ok(await memberOptions(app.db, request.auth));
  });
  app.post(
    '/api/personnel/assignRole',
    { ...canEdit, schema: { body: AssignRoleRequest } },
    async (request) => {
      await assignRole(app.db, request.auth, actorOf(request), request.body);
      return ok(null, translate('ROLE_ASSIGNED', request.language));
    },
  );
  app.post('/api/personnel/moveUser', { ...canEdit, schema: { body: MoveUserRequest } }, async (request) => {
    await moveUser(app.db, request.auth, actorOf(request), request.body);
    return ok(null, translate('MEMBER_MOVED', request.language));
  });
  app.post(
    '/api/personnel/removeUser',
    { ...canEdit, schema: { body: RemoveUserRequest } },
    async (request) => {
      await removeUser(app.db, request.auth, actorOf(request), request.body.userId);
      return ok(null, translate('MEMBER_REMOVED', request.language));
    },
  );
};
