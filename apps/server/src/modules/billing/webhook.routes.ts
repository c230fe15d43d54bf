import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { type PaymentConfig, verifyWebhookSignature } from './payment-adapter';
import { handleCheckoutEvent } from './webhook.service';

/**
 * The payment provider's webhook, `POST /api/payment/webhook`. No login: the Stripe-Signature
 * header over the raw body is the credential, so the body is kept as the exact text received.
 * Answers keep the API's envelope (API.md) and the HTTP status a provider reads: 400 for a bad or
 * stale signature, 200 for everything accepted, including repeats and events that pay nothing.
 */
export const webhookRoutes: FastifyPluginAsync<{ payment: PaymentConfig | null }> = async (
  app,
  { payment },
) => {
  // Encapsulated: only this plugin's routes keep JSON as text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post('/api/payment/webhook', { config: { public: true } }, async (request) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const secret = payment?.webhookSecret ?? '';
    if (!verifyWebhookSignature(secret, request.headers['stripe-signature'] as string | undefined, raw)) {
      request.log.warn('payment webhook: signature refused');
      throw new AppError('PAYMENT_SIGNATURE_INVALID', {}, 400);
    }
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      throw new AppError('PAYMENT_SIGNATURE_INVALID', {}, 400);
    }
    const outcome = await handleCheckoutEvent(app.db, event as never);
    if (outcome === 'mismatch') request.log.warn({ outcome }, 'payment webhook: event matches no order');
    return ok({ received: true, outcome });
  });
};
