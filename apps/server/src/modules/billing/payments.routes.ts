import {
  BuyCreditsRequest,
  OrderIdRequest,
  PageServiceListRequest,
  PayByTransferRequest,
  PayOnlineRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requirePermission } from '../../plugins/auth';
import type { FileStore } from '../files/store/store';
import { cancelOrder } from './orders.service';
import type { PaymentConfig } from './payment-adapter';
import { buyCredits, pageServiceList, payByTransfer, paymentOptions, payOnline } from './payments.service';

/**
 * The orders list (serviceList) and paying: `billing:view` reads, `billing:topUp` buys, pays and
 * cancels (spec section 6: expense management).
 */
export const paymentRoutes: FastifyPluginAsyncZod<{
  payment: PaymentConfig | null;
  files: FileStore;
}> = async (app, { payment, files }) => {
  const canView = { preHandler: requirePermission('billing:view') };
  const canPay = { preHandler: requirePermission('billing:topUp') };

  app.post('/api/order/paymentOptions', canView, async () => ok(paymentOptions(payment)));
  app.post(
    '/api/order/pageServiceList',
    { ...canView, schema: { body: PageServiceListRequest } },
    async (request) => ok(await pageServiceList(app.db, request.auth, request.body)),
  );
  app.post('/api/order/buyCredits', { ...canPay, schema: { body: BuyCreditsRequest } }, async (request) =>
    ok(await buyCredits(app.db, actorOf(request), request.body)),
  );
  app.post(
    '/api/order/payByTransfer',
    { ...canPay, schema: { body: PayByTransferRequest } },
    async (request) =>
      ok(await payByTransfer(app.db, actorOf(request), request.auth, files, request.body, request.language)),
  );
  app.post('/api/order/payOnline', { ...canPay, schema: { body: PayOnlineRequest } }, async (request) =>
    ok(await payOnline(app.db, actorOf(request), request.auth, payment, request.body.id)),
  );
  app.post(
    '/api/order/cancelServiceOrder',
    { ...canPay, schema: { body: OrderIdRequest } },
    async (request) => ok(await cancelOrder(app.db, actorOf(request), request.auth, request.body.id)),
  );
};
