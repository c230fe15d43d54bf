import { NoticeIdRequest, NoticeListRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { sendAnswer } from '../../lib/answer-cache';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { deleteNotice, listNotices, readAllNotices, readNotice } from './notices.service';

/**
 * The caller's own notices (spec section 7, "User"). Every call is limited to the caller and the
 * company in scope, like the unread badge (`/api/user/newUserNotice`).
 */
export const noticeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/user/userNoticeList', { schema: { body: NoticeListRequest } }, async (request, reply) => {
    const companyId = requireCompany(request.auth);
    return sendAnswer(request, reply, () =>
      listNotices(app.db, companyId, request.auth.userId, request.body, request.language),
    );
  });

  app.post('/api/user/readNotice', { schema: { body: NoticeIdRequest } }, async (request) => {
    const companyId = requireCompany(request.auth);
    await app.db.transaction(async (tx) => {
      if (await readNotice(tx, companyId, request.auth.userId, request.body.id)) {
        await recordAudit(tx, actorOf(request), {
          action: 'notice.read',
          targetType: 'notice',
          targetId: request.body.id,
        });
      }
    });
    return ok(null, translate('OK', request.language));
  });

  app.post('/api/user/readNoticeAll', async (request) => {
    const companyId = requireCompany(request.auth);
    const count = await app.db.transaction(async (tx) => {
      const changed = await readAllNotices(tx, companyId, request.auth.userId);
      if (changed > 0) {
        await recordAudit(tx, actorOf(request), {
          action: 'notice.readAll',
          targetType: 'user',
          targetId: request.auth.userId,
          after: { count: changed },
        });
      }
      return changed;
    });
    return ok({ count }, translate('OK', request.language));
  });

  app.post('/api/user/deleteNotice', { schema: { body: NoticeIdRequest } }, async (request) => {
    const companyId = requireCompany(request.auth);
    await app.db.transaction(async (tx) => {
      const row = await deleteNotice(tx, companyId, request.auth.userId, request.body.id);
      await recordAudit(tx, actorOf(request), {
        action: 'notice.delete',
        targetType: 'notice',
        targetId: row.id,
        before: { kind: row.kind, title: row.title, state: row.state },
      });
    });
    return ok(null, translate('OK', request.language));
  });
};
