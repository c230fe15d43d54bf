import { ServiceLapsesRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { requirePermission } from '../../plugins/auth';
import { listServiceLapses } from './service-lapses.service';

/** Lapsed service periods of a device (read-only; recovery itself is an order, modules/billing). */
export const servicePeriodRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/device/serviceLapses',
    { preHandler: requirePermission('device:view'), schema: { body: ServiceLapsesRequest } },
    async (request) => ok(await listServiceLapses(app.db, request.auth, request.body.deviceId)),
  );
};
