import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../lib/config';
import { applyReceipt } from './receipts/apply-receipt';
import { TWILIO_STATUS_PATH, twilioReceipt, twilioSignatureValid } from './receipts/twilio-status';
import {
  cloudReceipts,
  cloudSignatureValid,
  WHATSAPP_CLOUD_WEBHOOK_PATH,
} from './receipts/whatsapp-cloud-webhook';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Delivery receipts: Twilio's status callbacks and the WhatsApp Cloud API's status webhooks. The
 * providers have no session; each request is signed with a secret only the provider and we know,
 * and an unsigned or wrongly signed one is refused (403) before anything is read from it. Both
 * answer 2xx for receipts about messages we do not know (or no longer wait for), so the provider
 * does not retry them. Registered on its own: the bodies are form-encoded (Twilio) or must be
 * checked byte for byte (Meta), unlike the JSON of every other call.
 */
export const deliveryReceiptRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  // Meta signs the raw bytes: keep them as they came, parse after the check.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) =>
    done(null, String(body)),
  );

  app.post(TWILIO_STATUS_PATH, { config: { public: true } }, async (request, reply) => {
    const twilio = config.twilio;
    // The signature covers the address Twilio called, which is the one we gave it: PUBLIC_URL's,
    // whatever proxy the request came through.
    if (!twilio || !config.publicUrl) return reply.code(404).send();
    const params = (request.body ?? {}) as Record<string, string>;
    if (typeof params !== 'object') return reply.code(400).send();
    const url = `${config.publicUrl}${request.url}`;
    if (!twilioSignatureValid(twilio.authToken, url, params, header(request.headers['x-twilio-signature'])))
      return reply.code(403).send();
    const receipt = twilioReceipt(params);
    const notification = Number(new URL(url).searchParams.get('notification'));
    if (receipt && Number.isSafeInteger(notification) && notification > 0)
      await applyReceipt(app.db, receipt, notification);
    return reply.code(204).send();
  });

  // Meta's check of the webhook address: echo the challenge when the verify token matches.
  app.get(WHATSAPP_CLOUD_WEBHOOK_PATH, { config: { public: true } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const verifyToken = config.whatsappCloud?.verifyToken;
    if (!verifyToken || query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== verifyToken)
      return reply.code(403).send();
    return reply.type('text/plain').send(query['hub.challenge'] ?? '');
  });

  app.post(WHATSAPP_CLOUD_WEBHOOK_PATH, { config: { public: true } }, async (request, reply) => {
    const appSecret = config.whatsappCloud?.appSecret;
    if (!appSecret) return reply.code(404).send();
    const raw = typeof request.body === 'string' ? request.body : '';
    if (!cloudSignatureValid(appSecret, raw, header(request.headers['x-hub-signature-256'])))
      return reply.code(403).send();
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      return reply.code(400).send();
    }
    for (const receipt of cloudReceipts(payload)) await applyReceipt(app.db, receipt, null);
    return reply.code(200).send();
  });
};
