import {
  ExportLoginLogRequest,
  ExportOperationLogRequest,
  PageLoginLogRequest,
  PageOperationLogRequest,
} from '@coldchain/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { trackExport } from '../export-progress/export-progress.service';
import { recordExportPdf } from '../reports/report-files.service';
import { authorizeExport, type Signature, signerOf } from '../signature/signature.service';
import { pageOperationLog, recordAudit, verifyAuditChain } from './audit.service';
import { exportLoginLog, exportOperationLog } from './audit-exports';
import { type ExportFile, sendDownload } from './export-file';
import { pageLoginLog } from './login-log.service';

/**
 * Two views of the login log: the plain calls show one's own attempts (every user, no right
 * needed); the `audit*` calls show every attempt on the accounts of the company's members,
 * failures included, to holders of audit:view (page) and audit:export (file).
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Taking the company's trail away is itself on the trail (who, which period, how many rows);
   * one's own login history is not company data and is not recorded.
   */
  async function auditExport(
    request: FastifyRequest,
    action: string,
    query: { startTime: number; endTime: number; format: string; signPassword?: string },
    file: ExportFile,
    signature: Signature | null,
  ) {
    // The signature password is never written anywhere; the signature's meaning is.
    const { startTime, endTime, format, signPassword: _, ...filters } = query;
    const actor = actorOf(request);
    await app.db.transaction(async (tx) => {
      await recordAudit(tx, actor, {
        action,
        targetType: 'auditLog',
        targetId: requireCompany(request.auth),
        after: {
          startTime,
          endTime,
          format,
          filters,
          rows: file.rowCount,
          ...(signature ? { signature } : {}),
        },
      });
      // A PDF's printed fingerprint can be checked later (verifyReport).
      await recordExportPdf(tx, actor, action, file);
    });
    return file;
  }

  const canView = { preHandler: requirePermission('audit:view') };
  const canExport = { preHandler: requirePermission('audit:export') };

  app.post(
    '/api/audit/pageOperationLog',
    { ...canView, schema: { body: PageOperationLogRequest } },
    async (request) => ok(await pageOperationLog(app.db, requireCompany(request.auth), request.body)),
  );

  app.post(
    '/api/audit/exportOperationLog',
    { ...canExport, schema: { body: ExportOperationLogRequest } },
    async (request, reply) => {
      const signature = await authorizeExport(app.db, signerOf(request), request.body.signPassword);
      const file = await trackExport(app.db, request.auth.userId, request.body.progressId, async () =>
        auditExport(
          request,
          'audit.exportOperationLog',
          request.body,
          await exportOperationLog(app.db, requireCompany(request.auth), request.body, request.language),
          signature,
        ),
      );
      return sendDownload(reply, file);
    },
  );

  /** Recomputes the company's chain and points at any edited or missing entry. */
  app.post('/api/audit/verifyChain', canView, async (request) =>
    ok(await verifyAuditChain(app.db, requireCompany(request.auth))),
  );

  /** One's own login history: every user may see it. */
  app.post('/api/userLoginLog/pageUserLog', { schema: { body: PageLoginLogRequest } }, async (request) =>
    ok(await pageLoginLog(app.db, { userId: request.auth.userId }, request.body, request.language)),
  );

  /** One's own login history as a file. */
  app.post(
    '/api/userLoginLog/exportUserLog',
    { schema: { body: ExportLoginLogRequest } },
    async (request, reply) => {
      // One's own history is not company data (not audited), but it is an export all the same.
      await authorizeExport(app.db, signerOf(request), request.body.signPassword);
      const file = await trackExport(app.db, request.auth.userId, request.body.progressId, () =>
        exportLoginLog(app.db, { userId: request.auth.userId }, request.body, request.language),
      );
      return sendDownload(reply, file);
    },
  );

  /** Every login into the company, for auditors. */
  app.post(
    '/api/userLoginLog/auditPageUserLog',
    { ...canView, schema: { body: PageLoginLogRequest } },
    async (request) =>
      ok(
        await pageLoginLog(
          app.db,
          { companyId: requireCompany(request.auth) },
          request.body,
          request.language,
        ),
      ),
  );

  app.post(
    '/api/userLoginLog/auditExportUserLog',
    { ...canExport, schema: { body: ExportLoginLogRequest } },
    async (request, reply) => {
      const signature = await authorizeExport(app.db, signerOf(request), request.body.signPassword);
      const file = await trackExport(app.db, request.auth.userId, request.body.progressId, async () =>
        auditExport(
          request,
          'audit.exportLoginLog',
          request.body,
          await exportLoginLog(
            app.db,
            { companyId: requireCompany(request.auth) },
            request.body,
            request.language,
          ),
          signature,
        ),
      );
      return sendDownload(reply, file);
    },
  );
};
