import {
  AddRoleRequest,
  AssignableTagsRequest,
  EditRoleRequest,
  OrgIdRequest,
  PageRolesRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { addRole, assignableTags, deleteRole, editRole, pageRoles } from './roles.service';

/** `/api/role/*`: roles of a department (spec section 6); the rules live in roles.service.ts. */
export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('role:view') };
  const canEdit = { preHandler: requirePermission('role:edit') };

  app.post('/api/role/pageRoles', { ...canView, schema: { body: PageRolesRequest } }, async (request) => {
    requireCompany(request.auth);
    return ok(await pageRoles(app.db, request.auth, request.body));
  });
  app.post(
    '/api/role/assignableTags',
    { ...canEdit, schema: { body: AssignableTagsRequest } },
    async (request) => {
      requireCompany(request.auth);
      return ok(await assignableTags(app.db, request.auth, request.body.departmentId));
    },
  );
  app.post('/api/role/addRole', { ...canEdit, schema: { body: AddRoleRequest } }, async (request) =>
    ok(
      await addRole(app.db, request.auth, actorOf(request), request.body),
      translate('ROLE_ADDED', request.language),
    ),
  );
  app.post('/api/role/editRole', { ...canEdit, schema: { body: EditRoleRequest } }, async (request) =>
    ok(
      await editRole(app.db, request.auth, actorOf(request), request.body),
      translate('ROLE_SAVED', request.language),
    ),
  );
  app.post('/api/role/deleteRole', { ...canEdit, schema: { body: OrgIdRequest } }, async (request) => {
    await deleteRole(app.db, request.auth, actorOf(request), request.body.id);
    return ok(null, translate('ROLE_DELETED', request.language));
  });
};
