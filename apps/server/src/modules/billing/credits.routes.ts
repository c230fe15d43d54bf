import { ExportCreditLedgerRequest, PageCreditLedgerRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { trackExport } from '../export-progress/export-progress.service';
import { getCreditBalance, pageLedger } from './credits.service';
import { exportLedger } from './credits-export';

/**
 * Message credit (API.md "Billing"). `billing:view` is the tag of the expense management page
 * (menu `addedServices`) and of the statistics credits chart, so whoever sees that page sees the
 * balance and the ledger; buying (top-up orders) keeps `device:topUp` (docs/decisions.md).
 */
export const creditRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('billing:view') };

  app.post('/api/credit/balance', canView, async (request) =>
    ok(await getCreditBalance(app.db, requireCompany(request.auth))),
  );
  app.post(
    '/api/credit/pageLedger',
    { ...canView, schema: { body: PageCreditLedgerRequest } },
    async (request) => ok(await pageLedger(app.db, request.auth, request.body)),
  );
  /** The file itself, not an envelope (docs/API.md); refusals still come as envelopes. */
  app.post(
    '/api/credit/exportLedger',
    { ...canView, schema: { body: ExportCreditLedgerRequest } },
    async (request, reply) =>
      sendDownload(
        reply,
        await trackExport(app.db, request.auth.userId, request.body.progressId, () =>
          exportLedger(app.db, actorOf(request), request.auth, request.body, request.language),
        ),
      ),
  );
};
