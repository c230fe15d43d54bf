import { AddCalibrationRequest, CalibrationIdRequest, PageCalibrationsRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requirePermission } from '../../plugins/auth';
import type { FileStore } from '../files/store/store';
import { addCalibration, deleteCalibration, pageCalibrations } from './calibration.service';

/**
 * Calibration records of a monitoring device. Listing needs `device:view` and a device the caller
 * sees; adding and deleting need `device:edit` and a device the caller may change. The certificate
 * is uploaded first (`/api/file/upload`, purpose `calibration`) and referenced by its path.
 */
export const calibrationRoutes: FastifyPluginAsyncZod<{ files: FileStore }> = async (app, { files }) => {
  const canView = { preHandler: requirePermission('device:view') };
  const canEdit = { preHandler: requirePermission('device:edit') };

  app.post(
    '/api/device/addCalibration',
    { ...canEdit, schema: { body: AddCalibrationRequest } },
    async (request) =>
      ok(
        await addCalibration(app.db, actorOf(request), request.auth, request.body, {
          store: files,
          language: request.language,
        }),
      ),
  );
  app.post(
    '/api/device/pageCalibrations',
    { ...canView, schema: { body: PageCalibrationsRequest } },
    async (request) => ok(await pageCalibrations(app.db, request.auth, request.body)),
  );
  app.post(
    '/api/device/deleteCalibration',
    { ...canEdit, schema: { body: CalibrationIdRequest } },
    async (request) => {
      await deleteCalibration(app.db, actorOf(request), request.auth, request.body.id);
      return ok(null);
    },
  );
};
