import {
  PagePushDeliveriesRequest,
  PagePushUrlsRequest,
  PushUrlIdRequest,
  SavePushUrlRequest,
  SetPushDevicesRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import type { SecretBox } from '../../lib/secret-box';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { requireService } from '../companies/service-gate';
import { testPushUrl } from './push-test';
import { savePushUrl, setPushDevices, stopPushUrl } from './push-urls.service';
import { pagePushDeliveries, pagePushUrls } from './push-views.service';
import type { PushWorker } from './push-worker';

/** The supplier-enabled service of the `customizedPushDock` menu (packages/contract menus.ts). */
export const PUSH_DOCK_SERVICE = 'service:pushDock';

/** Off: the spec's "No permission for this service or operation" (modules/companies/service-gate.ts). */
const requirePushService = requireService(PUSH_DOCK_SERVICE);

/**
 * The console's push docking calls (API.md "Push docking"; `customizedPushDevice`,
 * `customizedPushUrl`): `docking:view` lists, `docking:edit` saves, tests, binds and stops.
 */
export const pushDockingRoutes: FastifyPluginAsyncZod<{ box: SecretBox; worker: PushWorker }> = async (
  app,
  { box, worker },
) => {
  const canView = { preHandler: [requirePermission('docking:view'), requirePushService] };
  const canEdit = { preHandler: [requirePermission('docking:edit'), requirePushService] };

  app.post('/api/push/saveUrl', { ...canEdit, schema: { body: SavePushUrlRequest } }, async (request) =>
    ok(await savePushUrl(app.db, box, worker.sender, actorOf(request), request.body)),
  );
  app.post('/api/push/setDevices', { ...canEdit, schema: { body: SetPushDevicesRequest } }, async (request) =>
    ok(await setPushDevices(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post('/api/push/testUrl', { ...canEdit, schema: { body: PushUrlIdRequest } }, async (request) =>
    ok(await testPushUrl(app.db, box, worker.sender, actorOf(request), request.body.id)),
  );
  app.post('/api/push/stopUrl', { ...canEdit, schema: { body: PushUrlIdRequest } }, async (request) => {
    await stopPushUrl(app.db, actorOf(request), request.body.id);
    return ok(null);
  });
  app.post('/api/push/pageUrls', { ...canView, schema: { body: PagePushUrlsRequest } }, async (request) =>
    ok(await pagePushUrls(app.db, requireCompany(request.auth), request.body)),
  );
  app.post(
    '/api/push/pageDeliveries',
    { ...canView, schema: { body: PagePushDeliveriesRequest } },
    async (request) => ok(await pagePushDeliveries(app.db, requireCompany(request.auth), request.body)),
  );
};
