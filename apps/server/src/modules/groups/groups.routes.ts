import {
  AddGroupRequest,
  EditGroupRequest,
  GroupDevicesRequest,
  GroupIdRequest,
  ListGroupsRequest,
  MoveGroupRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requirePermission } from '../../plugins/auth';
import { visibleDevices } from '../org/access';
import { groupDevices } from './grouping.service';
import { addGroup, deleteGroup, departmentGroups, editGroup, listGroups, moveGroup } from './groups.service';

export const groupRoutes: FastifyPluginAsyncZod = async (app) => {
  const canEdit = { preHandler: requirePermission('device:edit') };

  // The device forms and filters read the trees; the grouping mode reads groupDevices.
  app.post(
    '/api/group/listGroups',
    { preHandler: requirePermission('device:view'), schema: { body: ListGroupsRequest } },
    async (request) =>
      ok(await listGroups(app.db, request.auth, visibleDevices(request.auth), request.body.departmentId)),
  );
  app.post('/api/group/departmentGroups', { preHandler: requirePermission('device:view') }, async (request) =>
    ok(await departmentGroups(app.db, request.auth, visibleDevices(request.auth))),
  );
  app.post(
    '/api/group/groupDevices',
    { preHandler: requirePermission('monitoring:view'), schema: { body: GroupDevicesRequest } },
    async (request) =>
      ok(await groupDevices(app.db, request.auth, visibleDevices(request.auth), request.body.departmentId)),
  );
  app.post('/api/group/addGroup', { ...canEdit, schema: { body: AddGroupRequest } }, async (request) =>
    ok(await addGroup(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post('/api/group/editGroup', { ...canEdit, schema: { body: EditGroupRequest } }, async (request) => {
    await editGroup(app.db, actorOf(request), request.auth, request.body);
    return ok(null);
  });
  app.post('/api/group/moveGroup', { ...canEdit, schema: { body: MoveGroupRequest } }, async (request) => {
    await moveGroup(app.db, actorOf(request), request.auth, request.body);
    return ok(null);
  });
  app.post('/api/group/deleteGroup', { ...canEdit, schema: { body: GroupIdRequest } }, async (request) => {
    await deleteGroup(app.db, actorOf(request), request.auth, request.body.id);
    return ok(null);
  });
};
