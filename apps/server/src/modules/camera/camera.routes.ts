import {
  AlarmSnapshotsRequest,
  CAMERA_SERVICE,
  CameraIdRequest,
  PageCamerasRequest,
  PagePlatformAccountsRequest,
  SaveCameraRequest,
  SaveCameraScreenRequest,
  SavePlatformAccountRequest,
  type ServiceAuthTag,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { requireService } from '../companies/service-gate';
import { alarmSnapshotsOf } from './alarm-snapshots';
import type { CameraDeps } from './camera-context';
import { cameraScreen, saveCameraScreen } from './camera-screen.service';
import { cameraDetail, deleteCamera, liveAddress, pageCameras, saveCamera } from './cameras.service';
import {
  deletePlatformAccount,
  importCameras,
  pagePlatformAccounts,
  savePlatformAccount,
} from './platform-accounts.service';

/**
 * Off: the spec's "No permission for this service or operation", as for every service
 * (modules/companies/service-gate.ts; the auth plugin checks the tag before the body is read).
 */
const requireCameraService = requireService(CAMERA_SERVICE as ServiceAuthTag);

/**
 * The console's camera calls (API.md "Cameras"; issue 19): `camera:view` lists, plays and shows
 * alarm pictures, `camera:edit` changes cameras and platform accounts. Cameras follow department
 * scope as monitors do; platform accounts belong to the whole company.
 */
export const cameraRoutes: FastifyPluginAsyncZod<{ deps: CameraDeps }> = async (app, { deps }) => {
  const canView = { preHandler: [requirePermission('camera:view'), requireCameraService] };
  const canEdit = { preHandler: [requirePermission('camera:edit'), requireCameraService] };
  const db = app.db;

  app.post(
    '/api/camera/savePlatformAccount',
    { ...canEdit, schema: { body: SavePlatformAccountRequest } },
    async (request) => ok(await savePlatformAccount(deps, actorOf(request), request.body)),
  );
  app.post(
    '/api/camera/pagePlatformAccounts',
    { ...canView, schema: { body: PagePlatformAccountsRequest } },
    async (request) => ok(await pagePlatformAccounts(db, requireCompany(request.auth), request.body)),
  );
  app.post(
    '/api/camera/deletePlatformAccount',
    { ...canEdit, schema: { body: CameraIdRequest } },
    async (request) => {
      await deletePlatformAccount(db, actorOf(request), request.body.id);
      return ok(null);
    },
  );
  app.post('/api/camera/importCameras', { ...canEdit, schema: { body: CameraIdRequest } }, async (request) =>
    ok(await importCameras(deps, actorOf(request), request.auth, request.body.id)),
  );
  app.post('/api/camera/saveCamera', { ...canEdit, schema: { body: SaveCameraRequest } }, async (request) =>
    ok(await saveCamera(db, actorOf(request), request.auth, request.body)),
  );
  app.post('/api/camera/deleteCamera', { ...canEdit, schema: { body: CameraIdRequest } }, async (request) => {
    await deleteCamera(db, actorOf(request), request.auth, request.body.id);
    return ok(null);
  });
  app.post('/api/camera/pageCameras', { ...canView, schema: { body: PageCamerasRequest } }, async (request) =>
    ok(await pageCameras(db, request.auth, request.body)),
  );
  app.post('/api/camera/cameraDetail', { ...canView, schema: { body: CameraIdRequest } }, async (request) =>
    ok(await cameraDetail(db, request.auth, request.body.id)),
  );
  app.post('/api/camera/liveAddress', { ...canView, schema: { body: CameraIdRequest } }, async (request) =>
    ok(await liveAddress(deps, request.auth, request.body.id)),
  );
  app.post(
    '/api/camera/alarmSnapshots',
    { ...canView, schema: { body: AlarmSnapshotsRequest } },
    async (request) => ok(await alarmSnapshotsOf(deps, request.auth, request.body.alarmId)),
  );
  app.post('/api/camera/screen', canView, async (request) => ok(await cameraScreen(db, request.auth)));
  app.post(
    '/api/camera/saveScreen',
    { ...canView, schema: { body: SaveCameraScreenRequest } },
    async (request) => {
      await saveCameraScreen(db, request.auth, request.body);
      return ok(null);
    },
  );
};
