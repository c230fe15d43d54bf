import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The `data` of an `/open/v1` call's successful answer, for the OpenAPI document only: it is
     * never set as `schema.response`, which the zod serializer would use to check and re-shape
     * (strip) every answer (fastify-type-provider-zod's serializerCompiler, app.ts).
     */
    openApiData?: z.ZodType;
  }
}

/**
 * Where the integrator's guide lives: the signature itself cannot be expressed in OpenAPI. The
 * docs are not served by the platform and the project has no fixed public address, so a path.
 */
export const SIGNING_GUIDE = 'docs/open-api.md, "Signing a request", in the platform\'s source';

/**
 * The four signing headers of API.md "Open API", as apiKey schemes that one security
 * requirement asks for together (OpenAPI: the schemes of one requirement object all apply).
 */
export const openSecuritySchemes = {
  appKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-App-Key',
    description: `The key's \`appKey\` (\`ak_\` and 24 hex digits), made in the console (Interface docking → Open API). Sent with X-Timestamp, X-Nonce and X-Signature (see ${SIGNING_GUIDE})`,
  },
  timestamp: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Timestamp',
    description: "The request's time in epoch milliseconds, at most 5 minutes off the server's clock.",
  },
  nonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Nonce',
    description:
      'A new value for every request, 8 to 64 characters (a UUID will do); one used in the last 10 minutes is refused.',
  },
  signature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description: `Lowercase hex HMAC-SHA256, keyed with the key's \`appSecret\`, of METHOD, the path with its query string exactly as sent, X-Timestamp, X-Nonce and the body (empty for GET), joined by line feeds (see ${SIGNING_GUIDE})`,
  },
} as const;

export const openSecurity = [{ appKey: [], timestamp: [], nonce: [], signature: [] }];

const MsgContent = z.string().meta({
  description:
    'A message in the language of the `language` header (`cn`: Simplified Chinese; otherwise English)',
});

/** The envelope of a refused call: `data` is always null. */
function faultEnvelope(msgCode: number, meaning: string) {
  return z.object({
    msgCode: z.literal(msgCode).meta({ description: meaning }),
    msgContent: MsgContent,
    data: z.null(),
  });
}

function json(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * The answers of a signed call whose successful `data` is `data`, in the form
 * fastify-type-provider-zod's jsonSchemaTransform converts (`content` with zod schemas).
 */
export function openResponses(data: z.ZodType) {
  const success = z.object({
    msgCode: z.literal(200).meta({ description: 'Success: `data` holds the result' }),
    msgContent: MsgContent,
    data,
  });
  const refused = faultEnvelope(
    500,
    'A business or validation fault: a query value out of range (the message names the field), a sensor or device not opened to the key, or the company without the open-API service',
  );
  return {
    200: json(
      'The envelope `{ msgCode, msgContent, data }`: msgCode 200 with the result, or msgCode 500 with `data` null and a message naming the fault',
      z.union([success, refused]),
    ),
    400: json(
      'A malformed request (e.g. a URL that cannot be decoded): msgCode 400',
      faultEnvelope(400, 'Malformed request'),
    ),
    401: json(
      'A signing fault: a missing header, an unknown or revoked key, a timestamp more than 5 minutes off, a nonce of the wrong length or used in the last 10 minutes, or a wrong signature. msgCode 311, the message says which.',
      faultEnvelope(
        311,
        'The request is not signed as the X-App-Key, X-Timestamp, X-Nonce and X-Signature schemes require',
      ),
    ),
    429: json(
      "Over the key's rate (OPEN_API_RATE_PER_MINUTE requests a minute, default 600): msgCode 429; wait the seconds of Retry-After",
      faultEnvelope(429, 'Rate limited'),
    ),
    500: json(
      'An unexpected fault (its detail is only in the server log): msgCode 500',
      faultEnvelope(500, 'Unexpected fault'),
    ),
  };
}

/** Response headers, added after the zod transform (which keeps only `description` and `content`). */
const responseHeaders: Record<string, Record<string, unknown>> = {
  429: {
    'Retry-After': {
      type: 'integer',
      minimum: 1,
      description: 'Seconds until the key may call again',
    },
  },
};

/**
 * Zod marks every object of an answer `additionalProperties: false`; answers may gain fields
 * (API.md: contracts grow by adding), so a client validating against the document must not
 * reject them.
 */
function allowExtraFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allowExtraFields);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, allowExtraFields(value)]),
  );
}

/** The converted answers of `openResponses`, finished for the document. */
export function finishOpenResponses(response: unknown) {
  const answers = allowExtraFields(response) as Record<string, Record<string, unknown>>;
  for (const [status, headers] of Object.entries(responseHeaders)) {
    if (answers[status]) answers[status] = { ...answers[status], headers };
  }
  return answers;
}
