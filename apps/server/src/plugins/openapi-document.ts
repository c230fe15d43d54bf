import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  finishOpenResponses,
  openResponses,
  openSecurity,
  openSecuritySchemes,
  SIGNING_GUIDE,
} from './openapi-document-open';

/** Where the document is served; public, like the API's own description should be. */
export const OPENAPI_PATH = '/open/v1/openapi.json';

const OPEN_TAG = 'Open API';

/** The route groups of the document: the open API, then the console's calls by their first segment. */
function tagOf(url: string): string {
  if (url.startsWith('/open/v1/')) return OPEN_TAG;
  return `Console: ${url.split('/')[2] ?? ''}`;
}

/** What every call shares (docs/API.md "Conventions", API.md "Open API"), shown above the calls. */
const DESCRIPTION = [
  'The open API (`/open/v1`, tag "Open API") and the console\'s calls (`/api`, tagged "Console: <area>" by the second segment of the path).',
  '',
  '**Answers.** JSON envelope `{ msgCode, msgContent, data }`: msgCode 200 with the result in `data`; 500 a business or validation fault, `msgContent` naming the field, in HTTP 200; 311 login or signature fault. Transport faults keep their HTTP status and carry the envelope with msgCode equal to it: 400 malformed request, 404 unknown path, 413 body too large, 429 rate limited (`Retry-After`), 500 unexpected fault, 503 shutting down. Times are epoch milliseconds; ids are decimal strings. Lists answer `{ list, total, pageNum, pageSize }`.',
  '',
  '**Console calls** are `POST /api/<area>/<action>` with a JSON body (empty counts as `{}`) and these headers: `accessToken` (the token of `/api/doLogin`; missing, unknown or expired: msgCode 311), `companyId` (the company in scope; one the caller does not belong to answers "No permission"; without it, the last used company), `language` (`cn` for Simplified Chinese messages, otherwise English) and `platform` (1 web, 2 app, 3 open API).',
  '',
  `**Open API calls** are signed with a company key: headers X-App-Key, X-Timestamp, X-Nonce and X-Signature (HMAC-SHA256 of the request with the key's secret; see ${SIGNING_GUIDE}). A key reads only the devices opened to it.`,
].join('\n');

/**
 * One OpenAPI 3.1 document of the open API and the console's `/api` calls, generated from the
 * same zod schemas that validate the routes (@fastify/swagger with the zod type provider's
 * transform), so it cannot drift from what the server accepts. Device ingest, the live socket
 * and static files are left out: they have their own documents (docs/device-protocol.md, API.md).
 * Register before the routes: the plugin collects them as they are added.
 */
export async function registerOpenApiDocument(app: FastifyInstance, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cold-chain monitoring platform API',
        version,
        description: DESCRIPTION,
      },
      tags: [
        {
          name: OPEN_TAG,
          description: `Signed calls of a company key, reading the devices opened to it (see ${SIGNING_GUIDE}).`,
        },
      ],
      components: {
        securitySchemes: {
          ...openSecuritySchemes,
          accessToken: {
            type: 'apiKey',
            in: 'header',
            name: 'accessToken',
            description: 'The token of /api/doLogin',
          },
        },
      },
    },
    transform: (input) => {
      const { url } = input;
      if (!url.startsWith('/api/') && !url.startsWith('/open/v1/')) {
        return { schema: { ...input.schema, hide: true }, url };
      }
      const open = url.startsWith('/open/v1/');
      const data = input.route.config?.openApiData;
      // The answers are added here, for the document only: as the route's own `schema.response`
      // the zod serializer would check and re-shape every answer (openapi-document-open.ts).
      const out = jsonSchemaTransform(
        open && data ? { ...input, schema: { ...input.schema, response: openResponses(data) } } : input,
      );
      const isPublic = Boolean(input.route.config?.public);
      return {
        url: out.url,
        schema: {
          ...out.schema,
          ...(open && data ? { response: finishOpenResponses(out.schema.response) } : {}),
          tags: [tagOf(url)],
          ...(isPublic ? {} : { security: open ? openSecurity : [{ accessToken: [] }] }),
        },
      };
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send(app.swagger()),
  );
}
