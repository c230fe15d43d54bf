import {
  AddressIdRequest,
  LOGISTICS_SERVICE,
  PageAddressesRequest,
  SaveAddressRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { requireService } from '../companies/service-gate';
import { addressDetail, deleteAddress, pageAddresses, saveAddress } from './addresses.service';

/** Every logistics call needs the company's logistics service, which the supplier enables (spec section 6). */
const requireLogisticsService = requireService(LOGISTICS_SERVICE);

/**
 * The console's logistics calls (API.md "Logistics"): `logistics:view` reads, `logistics:edit`
 * changes. Addresses are company-wide, so no department scope applies (docs/decisions.md).
 */
export const logisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: [requirePermission('logistics:view'), requireLogisticsService] };
  const canEdit = { preHandler: [requirePermission('logistics:edit'), requireLogisticsService] };

  app.post(
    '/api/logistics/saveAddress',
    { ...canEdit, schema: { body: SaveAddressRequest } },
    async (request) => ok(await saveAddress(app.db, actorOf(request), request.body)),
  );
  app.post(
    '/api/logistics/pageAddresses',
    { ...canView, schema: { body: PageAddressesRequest } },
    async (request) => ok(await pageAddresses(app.db, requireCompany(request.auth), request.body)),
  );
  app.post(
    '/api/logistics/addressDetail',
    { ...canView, schema: { body: AddressIdRequest } },
    async (request) => ok(await addressDetail(app.db, requireCompany(request.auth), request.body.id)),
  );
  app.post(
    '/api/logistics/deleteAddress',
    { ...canEdit, schema: { body: AddressIdRequest } },
    async (request) => {
      await deleteAddress(app.db, actorOf(request), request.body.id);
      return ok(null);
    },
  );
};
