import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testConfig, useTestApp } from '../test/build-app';
import { openTestDatabase } from '../test/test-database';

describe('transport faults keep their HTTP status, everything else is an envelope', () => {
  const ctx = useTestApp({ bodyLimitBytes: 2048 });

  it('answers 404 with an envelope for an unknown /api path', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/nothing/here',
      headers: { language: 'cn' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      msgCode: 404,
      msgContent: '请求地址错误：/api/nothing/here',
      data: null,
    });
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/doLogin',
      headers: { 'content-type': 'application/json' },
      payload: '{"account": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      msgCode: 400,
      msgContent: 'Request error: the body is not valid JSON',
      data: null,
    });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/doLogin',
      headers: { 'content-type': 'text/plain' },
      payload: 'account=a',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().msgContent).toBe('Request error: send the body as application/json');
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/doLogin',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account: 'a@example.com', password: 'x'.repeat(5000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ msgCode: 413, msgContent: 'The request body is too large' });
  });

  it('treats an empty JSON body as {}', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/userInfo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().msgCode).toBe(311);
  });
});

describe('an unexpected fault', () => {
  it('is logged and answered 500 without its text or stack', async () => {
    const database = await openTestDatabase();
    const lines: string[] = [];
    const app = await buildApp({
      config: testConfig(),
      database,
      logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } } as never,
    });
    app.post('/api/test/boom', { config: { public: true } }, async () => {
      throw new Error('secret internal detail at /srv/app.ts:12');
    });
    const response = await app.inject({ method: 'POST', url: '/api/test/boom', headers: { language: 'cn' } });
    await app.close();
    await database.close();
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.json()).toEqual({ msgCode: 500, msgContent: '服务器内部错误，请稍后再试', data: null });
    expect(lines.join('')).toContain('secret internal detail');
    // It opens and migrates a database of its own: as long as a file's setup may take.
  }, 60_000);
});
