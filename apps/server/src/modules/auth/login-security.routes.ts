import {
  type Envelope,
  INTERNATIONAL_AREA_CODES,
  LoginCodeRequest,
  MsgCode,
  PASSWORD_RENEWAL_DAYS,
  PasswordRenewalRequest,
  QrTicketRequest,
  RedeemTicketRequest,
  UpdatePasswordRequest,
  type WireLanguage,
} from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { requireCompany } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { issueAddressCode, loginWithAddressCode } from './address-code.service';
import type { AuthRoutesOptions } from './auth.routes';
import type { LoginOutcome } from './auth.service';
import { confirmTicket, createTicket, pollTicket, scanTicket } from './qr-login.service';
import { loginWithTicket } from './ticket-login.service';
import { updatePassword } from './update-password.service';

/**
 * The envelope of a login: 200 with the token; 200 with `needCode` when an abnormal login must
 * be confirmed by a code; 301 with a password-change-only token when renewal is due.
 */
export function loginAnswer(outcome: LoginOutcome, language: WireLanguage): Envelope<unknown> {
  switch (outcome.kind) {
    case 'session':
      return ok(outcome.result);
    case 'needCode':
      return ok(
        { needCode: true, channel: outcome.channel },
        translate(outcome.channel === 'email' ? 'LOGIN_CODE_SENT_EMAIL' : 'LOGIN_CODE_SENT_SMS', language),
      );
    case 'renewPassword':
      return {
        msgCode: MsgCode.PasswordChangeRequired,
        msgContent: translate('PASSWORD_RENEWAL_DUE', language, { days: PASSWORD_RENEWAL_DAYS }),
        data: outcome.result,
      };
  }
}

export const loginSecurityRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const loginLimit = {
    public: true,
    rateLimit: { max: options.loginRateLimitPerMinute, timeWindow: '1 minute' },
  };
  const ip = (request: { ip?: string }) => request.ip ?? '';

  app.post('/api/getInternationalAreaCode', { config: { public: true } }, async () =>
    ok(INTERNATIONAL_AREA_CODES),
  );

  // Address code (type 3, docs/decisions.md): a one-time code for a kiosk or data-screen link.
  app.post('/api/doLoginCode', { config: loginLimit, schema: { body: LoginCodeRequest } }, async (request) =>
    loginAnswer(
      await loginWithAddressCode(
        app.db,
        request.body.account,
        request.body.platform,
        ip(request),
        options.sessionIdleMs,
      ),
      request.language,
    ),
  );
  // The data-screen shortcut's one-time ticket (docs/API.md "Data screens").
  app.post(
    '/api/datav/redeemTicket',
    { config: loginLimit, schema: { body: RedeemTicketRequest } },
    async (request) =>
      loginAnswer(
        await loginWithTicket(
          app.db,
          request.body.ticket,
          request.body.platform,
          ip(request),
          options.sessionIdleMs,
        ),
        request.language,
      ),
  );
  app.post('/api/loginCode/createAddressCode', async (request) =>
    ok(await issueAddressCode(app.db, request.auth.userId, request.auth.companyId)),
  );

  app.post('/api/user/updatePassword', { schema: { body: UpdatePasswordRequest } }, async (request) => {
    const { loggedOut } = await updatePassword(app.db, request.auth, request.body, ip(request));
    return ok(
      { loggedOut },
      translate(loggedOut ? 'PASSWORD_UPDATED' : 'PASSWORD_UPDATED_STAY', request.language),
    );
  });

  // QR login (spec section 8: an expired QR says "click the QR code to refresh").
  app.post('/api/qrLogin/createTicket', { config: loginLimit }, async (request) =>
    ok(await createTicket(app.db, ip(request))),
  );
  app.post(
    '/api/qrLogin/pollTicket',
    // The console polls every 2 seconds: 30 a minute per page, with room for a few open tabs.
    {
      config: { public: true, rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { body: QrTicketRequest },
    },
    async (request) => {
      const { renewPassword, ...result } = await pollTicket(
        app.db,
        request.body.ticket,
        1,
        options.sessionIdleMs,
      );
      if (renewPassword) {
        return {
          msgCode: MsgCode.PasswordChangeRequired,
          msgContent: translate('PASSWORD_RENEWAL_DUE', request.language, { days: PASSWORD_RENEWAL_DAYS }),
          data: result,
        };
      }
      return ok(result);
    },
  );
  app.post('/api/qrLogin/scanTicket', { schema: { body: QrTicketRequest } }, async (request) =>
    ok(await scanTicket(app.db, request.body.ticket)),
  );
  app.post('/api/qrLogin/confirmTicket', { schema: { body: QrTicketRequest } }, async (request) => {
    await confirmTicket(app.db, request.body.ticket, request.auth.userId);
    return ok(null, translate('QR_CONFIRMED', request.language));
  });

  // Company setting: members renew their password every 90 days (company administrators only).
  app.post('/api/loginSecurity/getPasswordRenewal', async (request) => {
    const companyId = requireCompany(request.auth);
    const [company] = await app.db
      .select({ enabled: companies.passwordRenewal })
      .from(companies)
      .where(eq(companies.id, companyId));
    return ok({ enabled: company?.enabled ?? false, days: PASSWORD_RENEWAL_DAYS });
  });
  app.post(
    '/api/loginSecurity/setPasswordRenewal',
    { schema: { body: PasswordRenewalRequest } },
    async (request) => {
      const companyId = requireCompany(request.auth);
      if (!request.auth.isAdmin) throw new AppError('NO_PERMISSION');
      await app.db.transaction(async (tx) => {
        const [before] = await tx
          .select({ enabled: companies.passwordRenewal })
          .from(companies)
          .where(eq(companies.id, companyId));
        await tx
          .update(companies)
          .set({ passwordRenewal: request.body.enabled })
          .where(eq(companies.id, companyId));
        await recordAudit(
          tx,
          { companyId, userId: request.auth.userId, ip: ip(request) },
          {
            action: 'company.passwordRenewal',
            targetType: 'company',
            targetId: companyId,
            before,
            after: { enabled: request.body.enabled },
          },
        );
      });
      return ok(null, translate('PASSWORD_RENEWAL_SAVED', request.language));
    },
  );
};
