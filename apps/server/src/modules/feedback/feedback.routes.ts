import { AddFeedbackRequest, PageFeedbackRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import { addFeedback } from './feedback.service';
import { pageOwnFeedback } from './feedback-list.service';

export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/user/addFeedback', { schema: { body: AddFeedbackRequest } }, async (request) =>
    ok(
      await addFeedback(app.db, request.auth, request.body, request.ip ?? ''),
      translate('FEEDBACK_SAVED', request.language),
    ),
  );
  // Every signed-in person, their own feedback only (feedback-list.service.ts).
  app.post('/api/user/pageFeedback', { schema: { body: PageFeedbackRequest } }, async (request) =>
    ok(await pageOwnFeedback(app.db, request.auth, request.body)),
  );
};
