import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/build-app';
import { OPENAPI_PATH } from './openapi-document';

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown[]; requestBody?: unknown }>>;
}

describe('the OpenAPI document', () => {
  const ctx = useTestApp();

  async function fetchDocument(): Promise<Document> {
    const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    return res.json() as Document;
  }

  it('is valid OpenAPI 3.1', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds every console call and every open call, with its body schema and how it is authorised', async () => {
    const document = await fetchDocument();
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    // The console calls, as the app's own route table records them (plugins/auth.ts).
    // The live socket (`/api/ws`) is a WebSocket, which OpenAPI cannot describe (API.md "Live channel").
    const missing = [...ctx.app.routePermissions.keys()].filter(
      (call) => call !== 'GET /api/ws' && !documented.has(call),
    );
    expect(missing).toEqual([]);
    for (const call of [
      'GET /open/v1/devices',
      'GET /open/v1/sensors/{sensorId}/readings',
      'GET /open/v1/alarms',
    ])
      expect(documented).toContain(call);
    const createKey = document.paths['/api/openApi/createKey']!.post!;
    expect(createKey.requestBody).toMatchObject({
      content: {
        'application/json': { schema: { properties: { name: { type: 'string', maxLength: 50 } } } },
      },
    });
    expect(createKey.security).toEqual([{ accessToken: [] }]);
    expect(document.paths['/open/v1/devices']!.get!.security).toEqual([{ appKey: [] }]);
    // A public call (login) needs nothing; device ingest is not in this document.
    expect(document.paths['/api/doLogin']!.post!.security).toBeUndefined();
    expect(Object.keys(document.paths).some((path) => path.startsWith('/device/'))).toBe(false);
  });
});
