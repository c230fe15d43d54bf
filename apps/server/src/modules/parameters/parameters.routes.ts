import { DeviceIdRequest, PushParametersRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requirePermission } from '../../plugins/auth';
import { editableDevices, visibleDevices } from '../org/access';

/** Parameter read and push down (API.md "down, parameters"); the state is readable with device:view. */
export const parameterRoutes: FastifyPluginAsyncZod = async (app) => {
  const canEdit = { preHandler: requirePermission('device:edit') };
  const canView = { preHandler: requirePermission('device:view') };

  app.post('/api/device/readParameters', { ...canEdit, schema: { body: DeviceIdRequest } }, async (request) =>
    ok(await app.parameters.read(actorOf(request), editableDevices(request.auth), request.body.id)),
  );
  app.post(
    '/api/device/pushParameters',
    { ...canEdit, schema: { body: PushParametersRequest } },
    async (request) =>
      ok(await app.parameters.push(actorOf(request), editableDevices(request.auth), request.body)),
  );
  app.post('/api/device/parameterState', { ...canView, schema: { body: DeviceIdRequest } }, async (request) =>
    ok(await app.parameters.latest(visibleDevices(request.auth), request.body.id)),
  );
};
