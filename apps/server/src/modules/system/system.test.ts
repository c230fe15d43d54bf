import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';

describe('health, client configuration and data-screen tickets', () => {
  const ctx = useTestApp({
    helpUrl: 'https://help.example.org/cc',
    contact: { phone: '+60 3 1234', email: 'ops@example.org', address: 'KL' },
  });

  it('GET /healthz answers while the database answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: ctx.database.kind });
  });

  it('gives the console its help address and contact block without a login', async () => {
    const { body } = await call<Record<string, unknown>>(ctx.app, '/api/system/clientConfig');
    expect(body.data).toMatchObject({
      helpUrl: 'https://help.example.org/cc',
      contact: { phone: '+60 3 1234', email: 'ops@example.org', address: 'KL' },
    });
  });

  it('issues a fresh one-time data-screen ticket to a holder of data:view', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const first = await call<{ ticket: string }>(ctx.app, '/api/datav/getEncryptionUser', {}, { token });
    const second = await call<{ ticket: string }>(ctx.app, '/api/datav/getEncryptionUser', {}, { token });
    expect(first.body.data.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.body.data.ticket).not.toBe(first.body.data.ticket);
    expect(first.body.data.ticket).not.toBe(token);
  });
});

describe('serving the built console', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'cc-dist-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'app.js'), 'console.log(1)');
  const ctx = useTestApp({ webDist: dist });

  it('serves files and falls back to index.html for console routes, 404 stays for /api', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    for (const url of ['/', '/home', '/deviceManagement/monitoringDevice?id=3', '/no/such/page']) {
      const page = await ctx.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    const api = await ctx.app.inject({ method: 'GET', url: '/api/whatever' });
    expect(api.statusCode).toBe(404);
    expect(api.json().msgCode).toBe(404);
  });
});
