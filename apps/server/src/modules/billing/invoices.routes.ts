import { ApplyInvoiceRequest, InvoiceIdRequest, PageInvoicesRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { actorOf, requirePermission } from '../../plugins/auth';
import { contentDisposition } from '../audit/export-file';
import { openUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { applyInvoice, cancelInvoice, invoiceableOrders, invoicePdf, pageInvoices } from './invoices.service';

/** Invoice applications (applicationForInvoice, orgApplicationForInvoice; API.md "Billing"). */
export const invoiceRoutes: FastifyPluginAsyncZod<{ files: FileStore }> = async (app, { files }) => {
  const canView = { preHandler: requirePermission('invoice:view') };
  const canEdit = { preHandler: requirePermission('invoice:edit') };

  app.post('/api/invoice/invoiceableOrders', canView, async (request) =>
    ok(await invoiceableOrders(app.db, request.auth)),
  );
  app.post(
    '/api/invoice/pageInvoices',
    { ...canView, schema: { body: PageInvoicesRequest } },
    async (request) => ok(await pageInvoices(app.db, request.auth, request.body)),
  );
  app.post(
    '/api/invoice/applyInvoice',
    { ...canEdit, schema: { body: ApplyInvoiceRequest } },
    async (request) =>
      ok(await applyInvoice(app.db, actorOf(request), request.auth, files, request.body, request.language)),
  );
  app.post(
    '/api/invoice/cancelInvoice',
    { ...canEdit, schema: { body: InvoiceIdRequest } },
    async (request) => {
      await cancelInvoice(app.db, actorOf(request), request.auth, request.body.id);
      return ok(null);
    },
  );
  /** The issued PDF as a file download (API.md: raw file with a filename). */
  app.post(
    '/api/invoice/downloadInvoice',
    { ...canView, schema: { body: InvoiceIdRequest } },
    async (request, reply) => {
      const { id, pdfFile } = await invoicePdf(app.db, request.auth, request.body.id);
      const stored = await openUpload(files, pdfFile);
      if (!stored) throw new AppError('INVOICE_NO_PDF');
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition(`invoice-${id}.pdf`))
        .header('Content-Length', stored.size)
        .header('X-Content-Type-Options', 'nosniff')
        .send(stored.body);
    },
  );
};
