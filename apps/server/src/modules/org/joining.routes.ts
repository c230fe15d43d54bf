import {
  CreateInviteRequest,
  IncomingAuditRequest,
  InviteIdRequest,
  JoinOrganizeRequest,
  JoinRequestListRequest,
} from '@coldchain/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany } from '../../plugins/auth';
import { createInvite, getInviteInfo, joinByInvite } from './invitations.service';
import { applyToJoin, decideJoinRequest, listJoinRequests, mayReviewApplications } from './joining.service';

/** Invitation links and applications to join (spec sections 4 and 9). */
export const joiningRoutes: FastifyPluginAsyncZod = async (app) => {
  // Reviewing needs `user:edit` or being a person in charge; which applications is decided per row.
  const canReview = {
    preHandler: async (request: FastifyRequest) => {
      requireCompany(request.auth);
      if (!(await mayReviewApplications(app.db, request.auth))) throw new AppError('NO_PERMISSION');
    },
  };

  app.post('/api/userOrganize/createInvite', { schema: { body: CreateInviteRequest } }, async (request) => {
    requireCompany(request.auth);
    return ok(
      await createInvite(app.db, request.auth, actorOf(request), request.body.departmentId),
      translate('INVITE_CREATED', request.language),
    );
  });
  // Public: the landing page may be opened before logging in; a bad link answers valid: false.
  app.post(
    '/api/userOrganize/getOrganizeInviteById',
    { config: { public: true }, schema: { body: InviteIdRequest } },
    async (request) => ok(await getInviteInfo(app.db, request.body.id)),
  );
  app.post('/api/userOrganize/inviteJoinOrganize', { schema: { body: InviteIdRequest } }, async (request) => {
    await joinByInvite(app.db, request.auth.userId, request.ip ?? '', request.body.id);
    return ok(null, translate('JOIN_APPLIED', request.language));
  });

  // `/api/register/joinOrganization` is the registration flow's last step: the same application.
  for (const url of ['/api/user/joinOrganize', '/api/register/joinOrganization']) {
    app.post(url, { schema: { body: JoinOrganizeRequest } }, async (request) => {
      await applyToJoin(app.db, request.auth.userId, request.ip ?? '', request.body);
      return ok(null, translate('JOIN_APPLIED', request.language));
    });
  }

  app.post(
    '/api/user/joinRequestList',
    { ...canReview, schema: { body: JoinRequestListRequest } },
    async (request) => ok(await listJoinRequests(app.db, request.auth, request.body)),
  );
  app.post(
    '/api/user/incomingAudit',
    { ...canReview, schema: { body: IncomingAuditRequest } },
    async (request) => {
      await decideJoinRequest(app.db, request.auth, actorOf(request), request.body);
      return ok(null, translate(request.body.approve ? 'JOIN_APPROVED' : 'JOIN_REJECTED', request.language));
    },
  );
};
