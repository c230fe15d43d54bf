import { AuditSignatureRequest, MemberExportRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import type { Auth } from '../../plugins/auth';
import { actorOf, requireCompany } from '../../plugins/auth';
import { companySignCheck } from './signature.service';
import { setAuditSignature, setMemberExport } from './signature-policy';

/** The company's signature and export policy is the company administrator's to set. */
function requireCompanyAdmin(auth: Auth): void {
  requireCompany(auth);
  if (!auth.isAdmin) throw new AppError('NO_PERMISSION');
}

export const signatureRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Every member may read the policy: it says whether their own actions will be signed. */
  app.post('/api/company/getAuditSignature', async (request) =>
    ok({ enabled: await companySignCheck(app.db, requireCompany(request.auth)) }),
  );

  app.post('/api/company/setAuditSignature', { schema: { body: AuditSignatureRequest } }, async (request) => {
    requireCompanyAdmin(request.auth);
    await setAuditSignature(app.db, actorOf(request), request.body.enabled);
    return ok(
      null,
      translate(request.body.enabled ? 'AUDIT_SIGNATURE_ON' : 'AUDIT_SIGNATURE_OFF', request.language),
    );
  });

  app.post('/api/personnel/setExportExcel', { schema: { body: MemberExportRequest } }, async (request) => {
    requireCompanyAdmin(request.auth);
    await setMemberExport(app.db, actorOf(request), request.body);
    return ok(null, translate('MEMBER_EXPORT_SAVED', request.language));
  });
};
