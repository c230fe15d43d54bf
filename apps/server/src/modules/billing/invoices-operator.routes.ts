import {
  IssueInvoiceRequest,
  OperatorPageInvoicesRequest,
  OperatorPageOrdersRequest,
  OrderIdRequest,
  RejectWithReasonRequest,
  SetDueDateRequest,
} from '@coldchain/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import type { FileStore } from '../files/store/store';
import type { Mailer } from '../notify/mailer';
import { requireOperator } from '../operator/operator-guard';
import { issueInvoice, pageAllInvoices, rejectInvoice } from './invoices-operator.service';
import { decideOrder, pageAllOrders, setOrderDueDate } from './payments-operator.service';

const operatorOf = (request: FastifyRequest) => ({ userId: request.auth.userId, ip: request.ip ?? '' });

/** The supplier's invoice and order decisions (operator console), operators only. */
export const operatorBillingRoutes: FastifyPluginAsyncZod<{
  files: FileStore;
  mailer: Mailer | null;
}> = async (app, { files, mailer }) => {
  const operatorOnly = { preHandler: requireOperator() };

  app.post(
    '/api/operator/invoice/pageInvoices',
    { ...operatorOnly, schema: { body: OperatorPageInvoicesRequest } },
    async (request) => ok(await pageAllInvoices(app.db, request.body)),
  );
  app.post(
    '/api/operator/invoice/issueInvoice',
    { ...operatorOnly, schema: { body: IssueInvoiceRequest } },
    async (request) => {
      await issueInvoice(app.db, operatorOf(request), files, mailer, request.body);
      return ok(null);
    },
  );
  app.post(
    '/api/operator/invoice/rejectInvoice',
    { ...operatorOnly, schema: { body: RejectWithReasonRequest } },
    async (request) => {
      await rejectInvoice(app.db, operatorOf(request), request.body);
      return ok(null);
    },
  );
  app.post(
    '/api/operator/order/pageOrders',
    { ...operatorOnly, schema: { body: OperatorPageOrdersRequest } },
    async (request) => ok(await pageAllOrders(app.db, request.body)),
  );
  app.post(
    '/api/operator/order/approveOrder',
    { ...operatorOnly, schema: { body: OrderIdRequest } },
    async (request) => ok(await decideOrder(app.db, operatorOf(request), request.body.id, { approve: true })),
  );
  app.post(
    '/api/operator/order/setDueDate',
    { ...operatorOnly, schema: { body: SetDueDateRequest } },
    async (request) => ok(await setOrderDueDate(app.db, operatorOf(request), request.body)),
  );
  app.post(
    '/api/operator/order/rejectOrder',
    { ...operatorOnly, schema: { body: RejectWithReasonRequest } },
    async (request) =>
      ok(
        await decideOrder(app.db, operatorOf(request), request.body.id, {
          approve: false,
          reason: request.body.reason,
        }),
      ),
  );
};
