import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { receiveEvent, receiveReadings } from './device-input';

/** `Authorization: Basic base64(serial:key)` -> [serial, key]. */
function basicCredentials(request: FastifyRequest): [string, string] | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString();
  const colon = decoded.indexOf(':');
  return colon > 0 ? [decoded.slice(0, colon), decoded.slice(colon + 1)] : null;
}

/**
 * HTTP ingest of device protocol v1: the same validation and storage as MQTT; the 200 answer is
 * sent after commit. Answers are for device firmware and integrators: plain JSON with an English
 * `error` reason, statuses 400 (payload), 401 (credentials), 404 (unknown serial), 413 (body over
 * BODY_LIMIT_BYTES), 429 (over DEVICE_MESSAGES_PER_MINUTE, with Retry-After).
 */
export const httpIngestRoutes: FastifyPluginAsync = async (app) => {
  async function device(request: FastifyRequest, reply: FastifyReply) {
    const credentials = basicCredentials(request);
    if (!credentials) {
      reply
        .status(401)
        .header('www-authenticate', 'Basic realm="devices"')
        .send({ error: 'Basic credentials required: serial and device key' });
      return null;
    }
    const [serial, key] = credentials;
    const known = await app.deviceDirectory.find(serial);
    if (!known) {
      reply.status(404).send({ error: `unknown serial ${serial}` });
      return null;
    }
    if (!(await app.deviceDirectory.authenticate(serial, key))) {
      reply.status(401).send({ error: 'wrong device key' });
      return null;
    }
    // Counted after authentication, so nobody can use up a device's allowance with its serial.
    const rate = app.ingest.messageRate;
    if (!rate.take(serial)) {
      const retryAfter = Math.max(1, Math.ceil(rate.msUntilToken(serial) / 1000));
      reply
        .status(429)
        .header('retry-after', String(retryAfter))
        .send({
          error: `more than ${rate.perMinute} messages a minute (DEVICE_MESSAGES_PER_MINUTE); nothing was stored, retry in ${retryAfter} s`,
        });
      return null;
    }
    return known;
  }

  app.post('/device/v1/up', { config: { public: true } }, async (request, reply) => {
    const known = await device(request, reply);
    if (!known) return reply;
    const outcome = await receiveReadings(app.ingest, known, request.body);
    if (!outcome.ok) return reply.status(400).send({ error: outcome.reason });
    return { ok: true, ...outcome.result };
  });

  app.post('/device/v1/event', { config: { public: true } }, async (request, reply) => {
    const known = await device(request, reply);
    if (!known) return reply;
    const outcome = await receiveEvent(app.ingest, known, request.body);
    if (!outcome.ok) return reply.status(400).send({ error: outcome.reason });
    return { ok: true };
  });
};
