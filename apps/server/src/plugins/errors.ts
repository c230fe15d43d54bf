import { MsgCode, type WireLanguage } from '@coldchain/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type MessageKey, translate } from '../i18n/messages';
import { AppError } from '../lib/app-error';
import { validationMessage } from '../lib/validation-message';

/** Fastify's own transport errors, mapped to the statuses API.md keeps for transport faults. */
const transportFaults: Record<string, { status: number; key: MessageKey }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: 'MALFORMED_REQUEST' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: 'MALFORMED_REQUEST' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, key: 'MALFORMED_REQUEST' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, key: 'UNSUPPORTED_CONTENT_TYPE' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: 'PAYLOAD_TOO_LARGE' },
};

function send(reply: FastifyReply, status: number, msgCode: number, msgContent: string) {
  return reply.status(status).send({ msgCode, msgContent, data: null });
}

/**
 * The device protocol's HTTP ingest answers `{ error }` with an English reason, not the console's
 * envelope (docs/device-protocol.md): also for a body that is not JSON or is too large, which
 * Fastify refuses before the route runs (found by the device fuzz, issue 13).
 */
function isDeviceProtocol(request: FastifyRequest) {
  return request.url.startsWith('/device/');
}

/**
 * The one place where errors become envelopes. Business errors answer HTTP 200 with msgCode 500
 * (or 311 for a login problem); transport faults keep their HTTP status; anything unexpected is
 * logged and answered without its text, so no stack trace or internal detail reaches a client.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const device = isDeviceProtocol(request);
    const language: WireLanguage = request.language ?? 'en';
    if (error instanceof AppError) {
      return send(reply, error.httpStatus, error.msgCode, translate(error.code, language, error.params));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const [first] = error.validation;
      return send(reply, 200, MsgCode.Failed, validationMessage(first!, language, request.routeOptions.url));
    }
    const fault = error.code ? transportFaults[error.code] : undefined;
    if (fault && device) return reply.status(fault.status).send({ error: translate(fault.key, 'en') });
    if (fault) return send(reply, fault.status, fault.status, translate(fault.key, language));
    if (error.statusCode === 429) {
      return send(reply, 429, 429, error.message);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      if (device) return reply.status(error.statusCode).send({ error: translate('MALFORMED_REQUEST', 'en') });
      return send(reply, error.statusCode, error.statusCode, translate('MALFORMED_REQUEST', language));
    }
    request.log.error({ err: error }, 'unexpected error');
    if (device) return reply.status(500).send({ error: translate('INTERNAL', 'en') });
    return send(reply, 500, 500, translate('INTERNAL', language));
  });
}
