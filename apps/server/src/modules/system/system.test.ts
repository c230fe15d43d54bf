import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
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
  const bundle = 'console.log("hashed bundle");'.repeat(100);
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'index-Bq_Z8x-3.js'), bundle);
  writeFileSync(path.join(dist, 'assets', 'index-Bq_Z8x-3.js.br'), brotliCompressSync(bundle));
  writeFileSync(path.join(dist, 'assets', 'index-Bq_Z8x-3.js.gz'), gzipSync(bundle));
  const ctx = useTestApp({ webDist: dist });

  it('sends hashed bundles compressed and cached for a year, everything else revalidated', async () => {
    const url = '/assets/index-Bq_Z8x-3.js';
    const br = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);

    const gz = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(bundle);

    const plain = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);

    // Not hashed: a new build must reach the browser at its next visit.
    const unhashed = await ctx.app.inject({ method: 'GET', url: '/app.js' });
    expect(unhashed.headers['cache-control']).toBe('no-cache');
  });

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
