import {
  CreateOpenApiKeyRequest,
  OpenApiKeyIdRequest,
  PageOpenApiKeysRequest,
  PageOpenApiUsageRequest,
  SetOpenApiKeyDevicesRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import type { SecretBox } from '../../lib/secret-box';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { requireService } from '../companies/service-gate';
import { createKey, pageKeys, pageUsage, revokeKey, setKeyDevices } from './open-api-keys.service';
import { OPEN_API_SERVICE } from './open-signature';

/** Key management needs the company's open-API service, which the supplier enables (spec section 6). */
const requireOpenApiService = requireService(OPEN_API_SERVICE);

/**
 * The console's calls for open-API keys (`OpenApi`, `OpenDevice`; API.md "Open API"):
 * `docking:view` lists, `docking:edit` creates, revokes and opens devices.
 */
export const openApiKeyRoutes: FastifyPluginAsyncZod<{ box: SecretBox }> = async (app, { box }) => {
  const canView = { preHandler: [requirePermission('docking:view'), requireOpenApiService] };
  const canEdit = { preHandler: [requirePermission('docking:edit'), requireOpenApiService] };

  app.post(
    '/api/openApi/createKey',
    { ...canEdit, schema: { body: CreateOpenApiKeyRequest } },
    async (request) => ok(await createKey(app.db, box, actorOf(request), request.body)),
  );
  app.post(
    '/api/openApi/pageKeys',
    { ...canView, schema: { body: PageOpenApiKeysRequest } },
    async (request) => ok(await pageKeys(app.db, requireCompany(request.auth), request.body)),
  );
  app.post(
    '/api/openApi/revokeKey',
    { ...canEdit, schema: { body: OpenApiKeyIdRequest } },
    async (request) => {
      await revokeKey(app.db, actorOf(request), request.body.id);
      return ok(null);
    },
  );
  app.post(
    '/api/openApi/setDevices',
    { ...canEdit, schema: { body: SetOpenApiKeyDevicesRequest } },
    async (request) => ok(await setKeyDevices(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post(
    '/api/openApi/pageUsage',
    { ...canView, schema: { body: PageOpenApiUsageRequest } },
    async (request) => ok(await pageUsage(app.db, requireCompany(request.auth), request.body)),
  );
};
