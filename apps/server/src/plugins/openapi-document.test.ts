import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/build-app';
import { OPENAPI_PATH } from './openapi-document';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
}

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json'?: { schema: JsonSchema } };
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, Response>;
}

interface Document {
  openapi: string;
  info: { description?: string };
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

/** The envelope variant of a response whose msgCode is `code`. */
function envelopeOf(response: Response | undefined, code: number): JsonSchema | undefined {
  const schema = response?.content?.['application/json']?.schema;
  const variants = schema?.anyOf ?? (schema ? [schema] : []);
  return variants.find((v) => v.properties?.msgCode?.enum?.includes(code));
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
      // Path parameters: `:name` in the route table, `{name}` in the document.
      (call) => call !== 'GET /api/ws' && !documented.has(call.replace(/:(\w+)/g, '{$1}')),
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
    expect(document.paths['/open/v1/devices']!.get!.security).toEqual([
      { appKey: [], timestamp: [], nonce: [], signature: [] },
    ]);
    // A public call (login) needs nothing; device ingest is not in this document.
    expect(document.paths['/api/doLogin']!.post!.security).toBeUndefined();
    expect(Object.keys(document.paths).some((path) => path.startsWith('/device/'))).toBe(false);
  });

  it('tells an integrator what every open call answers and how it is refused', async () => {
    const document = await fetchDocument();
    const open = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/open/v1/') && path !== OPENAPI_PATH)
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ call: `${method} ${path}`, op })),
      );
    expect(open.length).toBeGreaterThanOrEqual(3);
    for (const { call, op } of open) {
      // A call added without its prose or its answer's shape fails here, by name.
      expect({ call, summary: Boolean(op.summary), description: Boolean(op.description) }).toEqual({
        call,
        summary: true,
        description: true,
      });
      const success = envelopeOf(op.responses['200'], 200);
      expect({ call, data: success?.properties?.data?.type }).toEqual({ call, data: 'object' });
      expect(success?.required).toEqual(['msgCode', 'msgContent', 'data']);
      expect({ call, refused: Boolean(envelopeOf(op.responses['200'], 500)) }).toEqual({
        call,
        refused: true,
      });
      expect({ call, unsigned: Boolean(envelopeOf(op.responses['401'], 311)) }).toEqual({
        call,
        unsigned: true,
      });
      expect({ call, retryAfter: Object.keys(op.responses['429']?.headers ?? {}) }).toEqual({
        call,
        retryAfter: ['Retry-After'],
      });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '500']));
    }
    // The real shapes, not just an object: the devices page and the readings series.
    const devices = envelopeOf(document.paths['/open/v1/devices']!.get!.responses['200'], 200)!.properties!
      .data!;
    expect(devices.required).toEqual(['list', 'total', 'pageNum', 'pageSize']);
    expect(Object.keys(devices.properties!.list!.items!.properties!)).toEqual([
      'id',
      'serial',
      'name',
      'state',
      'sensors',
    ]);
    const readings = envelopeOf(
      document.paths['/open/v1/sensors/{sensorId}/readings']!.get!.responses['200'],
      200,
    )!.properties!.data!;
    expect(readings.required).toEqual(['points', 'min', 'max', 'avg', 'mkt']);
    const alarms = envelopeOf(document.paths['/open/v1/alarms']!.get!.responses['200'], 200)!.properties!
      .data!;
    expect(alarms.properties!.list!.items!.properties!.alarmType!.enum).toContain('overLimit');
    // Every signing header is a scheme the open calls require together.
    expect(
      Object.values(document.components.securitySchemes)
        .filter((scheme) => scheme.in === 'header')
        .map((scheme) => scheme.name),
    ).toEqual(expect.arrayContaining(['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Signature']));
  });

  it('groups the console calls by area and describes their envelope and headers once', async () => {
    const document = await fetchDocument();
    for (const [path, methods] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/')) continue;
      for (const op of Object.values(methods))
        expect({ path, tags: op.tags }).toEqual({ path, tags: [`Console: ${path.split('/')[2]}`] });
    }
    expect(document.paths['/api/alarm/pageAlarms']?.post?.tags).toEqual(['Console: alarm']);
    for (const word of ['msgCode', 'msgContent', 'accessToken', 'companyId', 'language', 'platform'])
      expect(document.info.description).toContain(word);
  });
});
