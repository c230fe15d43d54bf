import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/build-app';
import { buildCompany, buildDevice } from '../test/factories';

/*
 * Found by the device fuzz (issue 13): a body Fastify refuses before the route runs (not JSON, too
 * large, another content type) was answered on `/device/v1/*` with the console's envelope
 * `{msgCode, msgContent, data}`. The device protocol answers `{ error }` with an English reason
 * (docs/device-protocol.md "HTTP"), whatever the `language` header says.
 */
describe('transport faults of the device protocol', () => {
  const ctx = useTestApp({ bodyLimitBytes: 2048 });

  async function post(payload: string, contentType = 'application/json') {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const authorization = `Basic ${Buffer.from(`${device.serial}:${device.deviceKey}`).toString('base64')}`;
    return ctx.app.inject({
      method: 'POST',
      url: '/device/v1/up',
      headers: { 'content-type': contentType, authorization, language: 'cn' },
      payload,
    });
  }

  it('answers { error } in English for a body that is not JSON, too large, or of another type', async () => {
    const cases: [string, string, number, RegExp][] = [
      ['{"records": [', 'application/json', 400, /not valid JSON/],
      [
        JSON.stringify({ records: [{ ts: 1, note: 'x'.repeat(4096) }] }),
        'application/json',
        413,
        /too large/,
      ],
      ['records', 'text/csv', 400, /application\/json/],
    ];
    for (const [payload, contentType, status, reason] of cases) {
      const response = await post(payload, contentType);
      expect({ status: response.statusCode, keys: Object.keys(response.json()) }).toEqual({
        status,
        keys: ['error'],
      });
      expect(response.json().error).toMatch(reason);
    }
  });

  it('keeps the envelope on /api', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/doLogin',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(Object.keys(response.json()).sort()).toEqual(['data', 'msgCode', 'msgContent']);
  });
});
