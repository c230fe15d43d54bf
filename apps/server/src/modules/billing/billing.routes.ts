import {
  MonitoringDevicePayRequest,
  MonitoringDeviceRecoveryRequest,
  OrderIdRequest,
  PageOrdersRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { visibleDevices } from '../org/access';
import {
  cancelOrder,
  createRecoveryOrder,
  createRenewalOrder,
  pageOrders,
  priceList,
} from './orders.service';
import type { PriceConfig } from './prices';
import { actorOf, requireTopUp } from './top-up-permission';

/** Renewal and data recovery orders; every call needs the top-up permission (spec section 6). */
export const billingRoutes: FastifyPluginAsyncZod<{ prices: PriceConfig }> = async (app, { prices }) => {
  const canTopUp = { preHandler: requireTopUp() };

  app.post('/api/order/priceList', canTopUp, async () => ok(priceList(prices)));
  app.post(
    '/api/device/monitoringDevicePay',
    { ...canTopUp, schema: { body: MonitoringDevicePayRequest } },
    async (request) =>
      ok(
        await createRenewalOrder(
          app.db,
          actorOf(request),
          visibleDevices(request.auth),
          prices,
          request.body,
        ),
      ),
  );
  app.post(
    '/api/device/monitoringDeviceRecovery',
    { ...canTopUp, schema: { body: MonitoringDeviceRecoveryRequest } },
    async (request) =>
      ok(
        await createRecoveryOrder(
          app.db,
          actorOf(request),
          visibleDevices(request.auth),
          prices,
          request.body,
        ),
      ),
  );
  app.post('/api/order/pageOrders', { ...canTopUp, schema: { body: PageOrdersRequest } }, async (request) =>
    ok(await pageOrders(app.db, request.auth, request.body)),
  );
  app.post('/api/order/cancelOrder', { ...canTopUp, schema: { body: OrderIdRequest } }, async (request) =>
    ok(await cancelOrder(app.db, actorOf(request), request.auth, request.body.id)),
  );
};
