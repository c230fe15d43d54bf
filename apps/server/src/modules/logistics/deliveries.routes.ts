import {
  DeliveryIdRequest,
  DeliveryNoteRequest,
  LinkDeliveryNoteRequest,
  LinkReceiptRequest,
  LinkReceiveRequest,
  LOGISTICS_SERVICE,
  PageDeliveriesRequest,
  ReceiveDeliveryRequest,
  SaveDeliveryRequest,
  SendReceiptLinkRequest,
} from '@coldchain/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { sendDownload } from '../audit/export-file';
import { requireService } from '../companies/service-gate';
import { receiveMultipart } from '../files/multipart-body';
import type { FileStore } from '../files/store/store';
import type { Mailer } from '../notify/mailer';
import { signerOf } from '../signature/signature.service';
import {
  arriveDelivery,
  cancelDelivery,
  departDelivery,
  pageDeliveries,
  pageReceiving,
  saveDelivery,
} from './deliveries.service';
import { deliveryNote } from './delivery-note';
import { linkDeliveryId, linkPhoto, linkReceive, receiveDelivery, sendReceiptLink } from './delivery-receipt';
import { deliveryDetail, type Viewer, visibleDelivery } from './delivery-view';

export interface DeliveryRouteOptions {
  files: FileStore;
  mailer: Mailer | null;
  /** Where the console is reached from outside: receipt links point there. */
  baseUrl: string;
}

/** Audits a delivery note handed out: shipping documents are audited (issue 18 item 4). */
async function auditNote(db: Db, actor: Actor, deliveryId: number, orderNo: string, format: string) {
  await recordAudit(db, actor, {
    action: 'logisticsDelivery.note',
    targetType: 'logisticsDelivery',
    targetId: String(deliveryId),
    after: { orderNo, format },
  });
}

/**
 * Delivery and receiving orders (API.md "Logistics"): the sender's calls need `logistics:edit`
 * (changes) or `logistics:view`, the receiving company's the same tags in its own company, both
 * with the supplier's logistics service. The `link*` calls are public: a receipt link's token is
 * their only credential, and they show that one order's window, nothing else of the sender.
 */
export const logisticsDeliveryRoutes: FastifyPluginAsyncZod<DeliveryRouteOptions> = async (app, options) => {
  const requireLogisticsService = requireService(LOGISTICS_SERVICE);
  const canView = { preHandler: [requirePermission('logistics:view'), requireLogisticsService] };
  const canEdit = { preHandler: [requirePermission('logistics:edit'), requireLogisticsService] };
  const idOf = (request: { body: { id: string } }) => request.body.id;

  app.post(
    '/api/logistics/saveDelivery',
    { ...canEdit, schema: { body: SaveDeliveryRequest } },
    async (request) => ok(await saveDelivery(app.db, request.auth, actorOf(request), request.body)),
  );
  for (const [path, run] of [
    ['/api/logistics/departDelivery', departDelivery],
    ['/api/logistics/arriveDelivery', arriveDelivery],
    ['/api/logistics/cancelDelivery', cancelDelivery],
  ] as const) {
    app.post(path, { ...canEdit, schema: { body: DeliveryIdRequest } }, async (request) => {
      await run(app.db, actorOf(request), idOf(request));
      return ok(null);
    });
  }
  app.post(
    '/api/logistics/pageDeliveries',
    { ...canView, schema: { body: PageDeliveriesRequest } },
    async (request) => ok(await pageDeliveries(app.db, requireCompany(request.auth), request.body)),
  );
  app.post(
    '/api/logistics/pageReceiving',
    { ...canView, schema: { body: PageDeliveriesRequest } },
    async (request) => ok(await pageReceiving(app.db, requireCompany(request.auth), request.body)),
  );
  app.post(
    '/api/logistics/deliveryDetail',
    { ...canView, schema: { body: DeliveryIdRequest } },
    async (request) =>
      ok(await deliveryDetail(app.db, { companyId: requireCompany(request.auth) }, request.body.id)),
  );
  app.post(
    '/api/logistics/receiveDelivery',
    { ...canEdit, schema: { body: ReceiveDeliveryRequest } },
    async (request) => {
      await receiveDelivery(app.db, signerOf(request), actorOf(request), request.body, {
        store: options.files,
        language: request.language,
      });
      return ok(null);
    },
  );
  app.post(
    '/api/logistics/sendReceiptLink',
    { ...canEdit, schema: { body: SendReceiptLinkRequest } },
    async (request) =>
      ok(await sendReceiptLink(app.db, options.mailer, actorOf(request), request.body, options.baseUrl)),
  );
  app.post(
    '/api/logistics/deliveryNote',
    { ...canView, schema: { body: DeliveryNoteRequest } },
    async (request, reply) => {
      const viewer: Viewer = { companyId: requireCompany(request.auth) };
      const row = await visibleDelivery(app.db, viewer, request.body.id);
      const file = await deliveryNote(
        app.db,
        row,
        request.body.format,
        request.language,
        request.body.timeZone,
        { store: options.files },
      );
      await auditNote(app.db, actorOf(request), row.id, row.orderNo, request.body.format);
      return sendDownload(reply, file);
    },
  );

  const open = { config: { public: true } };
  app.post('/api/logistics/linkReceipt', { ...open, schema: { body: LinkReceiptRequest } }, async (request) =>
    ok(await deliveryDetail(app.db, { linkDeliveryId: await linkDeliveryId(app.db, request.body.token) })),
  );
  app.post(
    '/api/logistics/linkReceive',
    { ...open, schema: { body: LinkReceiveRequest } },
    async (request) => {
      await linkReceive(app.db, request.body, {
        ip: request.ip ?? '',
        store: options.files,
        language: request.language,
      });
      return ok(null);
    },
  );
  // The one multipart call of the link receiver, in a scope of its own: only it parses multipart.
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.post('/api/logistics/linkPhoto', open, async (request) => {
      const { files, fields } = await receiveMultipart(request, 1);
      return ok(
        await linkPhoto(app.db, fields.token, files[0], {
          store: options.files,
          language: request.language,
        }),
      );
    });
  });
  app.post(
    '/api/logistics/linkDeliveryNote',
    { ...open, schema: { body: LinkDeliveryNoteRequest } },
    async (request, reply) => {
      const row = await visibleDelivery(app.db, {
        linkDeliveryId: await linkDeliveryId(app.db, request.body.token),
      });
      const file = await deliveryNote(
        app.db,
        row,
        request.body.format,
        request.language,
        request.body.timeZone,
        { store: options.files },
      );
      await auditNote(
        app.db,
        { companyId: row.companyId, userId: null, ip: request.ip ?? '' },
        row.id,
        row.orderNo,
        request.body.format,
      );
      return sendDownload(reply, file);
    },
  );
};
