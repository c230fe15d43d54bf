import {
  ApplyDockingRequest,
  DecideDockingRequest,
  DockingIdRequest,
  PageDockingDeliveriesRequest,
  PageDockingRequestsRequest,
  PageRequest,
  SaveDockingPlatformRequest,
  SetDockingDevicesRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import type { SecretBox } from '../../lib/secret-box';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { requireService } from '../companies/service-gate';
import { requireOperator } from '../operator/operator-guard';
import type { PushWorker } from '../push-docking/push-worker';
import {
  applyDocking,
  companyDockingDetail,
  pageCompanyPlatforms,
  pageDockingDeliveries,
  setDockingDevices,
  stopDocking,
} from './dockings.service';
import {
  decideDockingRequest,
  pageDockingPlatforms,
  pageDockingRequests,
  saveDockingPlatform,
} from './platforms.service';

/** The supplier-enabled service of the `platformList` menu (packages/contract menus.ts). */
export const PLATFORM_DOCK_SERVICE = 'service:platformDock';

/** Off: the spec's "No permission for this service or operation" (modules/companies/service-gate.ts). */
const requireDockService = requireService(PLATFORM_DOCK_SERVICE);

/**
 * Platform docking (issue 16 item 5; docs/API.md "Platform docking"): companies apply
 * (`docking:view` lists, `docking:edit` applies, changes monitors, stops), the supplier's
 * operators offer platforms and enable or refuse applications.
 */
export const platformDockingRoutes: FastifyPluginAsyncZod<{ box: SecretBox; worker: PushWorker }> = async (
  app,
  { box, worker },
) => {
  const canView = { preHandler: [requirePermission('docking:view'), requireDockService] };
  const canEdit = { preHandler: [requirePermission('docking:edit'), requireDockService] };
  const operatorOnly = { preHandler: requireOperator() };

  app.post('/api/platformDock/pagePlatforms', canView, async (request) =>
    ok(await pageCompanyPlatforms(app.db, requireCompany(request.auth))),
  );
  app.post(
    '/api/platformDock/dockingDetail',
    { ...canView, schema: { body: DockingIdRequest } },
    async (request) => ok(await companyDockingDetail(app.db, requireCompany(request.auth), request.body.id)),
  );
  app.post(
    '/api/platformDock/apply',
    { ...canEdit, schema: { body: ApplyDockingRequest } },
    async (request) => ok(await applyDocking(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post(
    '/api/platformDock/setDevices',
    { ...canEdit, schema: { body: SetDockingDevicesRequest } },
    async (request) => ok(await setDockingDevices(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post('/api/platformDock/stop', { ...canEdit, schema: { body: DockingIdRequest } }, async (request) => {
    await stopDocking(app.db, actorOf(request), request.body.id);
    return ok(null);
  });
  app.post(
    '/api/platformDock/pageDeliveries',
    { ...canView, schema: { body: PageDockingDeliveriesRequest } },
    async (request) => ok(await pageDockingDeliveries(app.db, requireCompany(request.auth), request.body)),
  );

  app.post(
    '/api/operator/platform/savePlatform',
    { ...operatorOnly, schema: { body: SaveDockingPlatformRequest } },
    async (request) =>
      ok(
        await saveDockingPlatform(
          app.db,
          box,
          worker.sender,
          { userId: request.auth.userId, ip: request.ip ?? '' },
          request.body,
        ),
      ),
  );
  app.post(
    '/api/operator/platform/pagePlatforms',
    { ...operatorOnly, schema: { body: PageRequest } },
    async (request) => ok(await pageDockingPlatforms(app.db, request.body)),
  );
  app.post(
    '/api/operator/platform/pageRequests',
    { ...operatorOnly, schema: { body: PageDockingRequestsRequest } },
    async (request) => ok(await pageDockingRequests(app.db, request.body)),
  );
  app.post(
    '/api/operator/platform/decideRequest',
    { ...operatorOnly, schema: { body: DecideDockingRequest } },
    async (request) => {
      await decideDockingRequest(app.db, { userId: request.auth.userId, ip: request.ip ?? '' }, request.body);
      worker.wake();
      return ok(null);
    },
  );
};
