import {
  AddDepartmentRequest,
  EditDepartmentRequest,
  OrgIdRequest,
  TransferLeaderRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import {
  addDepartment,
  deleteDepartment,
  editDepartment,
  getDepartmentDetail,
  getMyDepartment,
  listDepartmentTree,
} from './departments.service';
import { transferLeader } from './leader-transfer.service';

/** The department tree (spec sections 3-5): listing needs `org:view`, changes `org:edit`. */
export const departmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('org:view') };
  const canEdit = { preHandler: requirePermission('org:edit') };

  app.post('/api/user/userOrganizeList', canView, async (request) =>
    ok(await listDepartmentTree(app.db, request.auth)),
  );
  app.post('/api/user/userOrganizeInfo', { ...canView, schema: { body: OrgIdRequest } }, async (request) =>
    ok(await getDepartmentDetail(app.db, request.auth, request.body.id)),
  );
  // Every member, with or without a role, may see the department they belong to.
  app.post('/api/userOrganize/myDepartment', async (request) => {
    requireCompany(request.auth);
    return ok(await getMyDepartment(app.db, request.auth));
  });
  app.post(
    '/api/userOrganize/addDepartment',
    { ...canEdit, schema: { body: AddDepartmentRequest } },
    async (request) =>
      ok(
        await addDepartment(app.db, request.auth, actorOf(request), request.body),
        translate('DEPARTMENT_ADDED', request.language),
      ),
  );
  app.post(
    '/api/userOrganize/editDepartment',
    { ...canEdit, schema: { body: EditDepartmentRequest } },
    async (request) => {
      await editDepartment(app.db, request.auth, actorOf(request), request.body);
      return ok(null, translate('DEPARTMENT_SAVED', request.language));
    },
  );
  app.post(
    '/api/userOrganize/deleteDepartment',
    { ...canEdit, schema: { body: OrgIdRequest } },
    async (request) => {
      await deleteDepartment(app.db, request.auth, actorOf(request), request.body.id);
      return ok(null, translate('DEPARTMENT_DELETED', request.language));
    },
  );
  app.post(
    '/api/userOrganize/transferLeader',
    { ...canEdit, schema: { body: TransferLeaderRequest } },
    async (request) => {
      await transferLeader(app.db, request.auth, actorOf(request), request.body);
      return ok(null, translate('LEADER_TRANSFERRED', request.language));
    },
  );
};
