import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Where the document is served; public, like the API's own description should be. */
export const OPENAPI_PATH = '/open/v1/openapi.json';

/** The route groups of the document: the open API, then the console's calls by their first segment. */
function tagOf(url: string): string {
  if (url.startsWith('/open/v1/')) return 'Open API';
  return `Console: ${url.split('/')[2] ?? ''}`;
}

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
        description:
          'Open API (`/open/v1`, signed with a company key: docs/open-api.md) and the console calls (`/api`, with the `accessToken` header of a login). Answers are the envelope `{ msgCode, msgContent, data }`.',
      },
      components: {
        securitySchemes: {
          appKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-App-Key',
            description: 'With X-Timestamp, X-Nonce and X-Signature (HMAC-SHA256): docs/open-api.md',
          },
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
      const out = jsonSchemaTransform(input);
      const isPublic = Boolean((input.route.config as { public?: boolean } | undefined)?.public);
      return {
        url: out.url,
        schema: {
          ...out.schema,
          tags: [tagOf(url)],
          ...(isPublic
            ? {}
            : { security: [url.startsWith('/open/v1/') ? { appKey: [] } : { accessToken: [] }] }),
        },
      };
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send(app.swagger()),
  );
}
