import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config';
import { useTestApp } from '../test/build-app';
import { tileImageSource } from './security-headers';

/** The policy as a map of directive -> sources. */
function directives(header: unknown): Record<string, string> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources.join(' ')]),
  );
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('security headers with the default settings', () => {
  const ctx = useTestApp();

  it('gives console pages a policy without inline scripts, never framed', async () => {
    const response = await get(ctx.app, '/login');
    const csp = directives(response.headers['content-security-policy']);
    expect(csp['script-src']).toBe("'self'");
    expect(csp['default-src']).toBe("'self'");
    expect(csp['object-src']).toBe("'none'");
    expect(csp['frame-ancestors']).toBe("'none'");
    expect(csp['connect-src']).toBe("'self'");
    expect(csp['img-src']).toBe("'self' data: blob:");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('puts them on API answers and errors too', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toBe("'none'");
  });

  it('does not let the dashboards be framed unless DASHBOARD_FRAME_ANCESTORS says who may', async () => {
    const response = await get(ctx.app, '/screen');
    expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toBe("'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS only over TLS: plain HTTP, or a forwarded proto from an untrusted peer, gets none', async () => {
    expect((await get(ctx.app, '/login')).headers['strict-transport-security']).toBeUndefined();
    const claimed = await get(ctx.app, '/login', { 'x-forwarded-proto': 'https' });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('security headers with a tile server, framable dashboards and a trusted proxy', () => {
  const ctx = useTestApp({
    mapTileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
    dashboardFrameAncestors: ['https://wall.example.com', 'https://intranet.example.com:8443'],
    trustProxy: ['127.0.0.1'],
  });

  it('allows the tiles as images from their origin', async () => {
    const csp = directives((await get(ctx.app, '/map')).headers['content-security-policy']);
    expect(csp['img-src']).toBe("'self' data: blob: https://*.tiles.example.org");
  });

  it('lets the configured origins frame /screen and /screen2, and nothing else', async () => {
    for (const url of ['/screen', '/screen2', '/screen2?company=1']) {
      const response = await get(ctx.app, url);
      expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toBe(
        'https://wall.example.com https://intranet.example.com:8443',
      );
      expect(response.headers['x-frame-options']).toBeUndefined();
    }
    const home = await get(ctx.app, '/home');
    expect(directives(home.headers['content-security-policy'])['frame-ancestors']).toBe("'none'");
    expect(home.headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS when the trusted proxy says the request came over TLS', async () => {
    const response = await get(ctx.app, '/login', { 'x-forwarded-proto': 'https' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await get(ctx.app, '/login', { 'x-forwarded-proto': 'http' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('header settings', () => {
  it('takes tile templates with or without sub-domains', () => {
    expect(tileImageSource('')).toBe('');
    expect(tileImageSource('https://tile.example.com/{z}/{x}/{y}.png')).toBe('https://tile.example.com');
    expect(tileImageSource('http://10.0.0.5:8081/{z}/{x}/{y}.png')).toBe('http://10.0.0.5:8081');
    expect(tileImageSource('https://t{s}.example.com/{z}/{x}/{y}.png')).toBe('https:');
  });

  it('refuses a frame ancestor that is not an origin, naming the variable', () => {
    expect(
      loadConfig({ DASHBOARD_FRAME_ANCESTORS: 'https://a.example.com https://b.example.com/' })
        .dashboardFrameAncestors,
    ).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(() => loadConfig({ DASHBOARD_FRAME_ANCESTORS: 'https://a.example.com/page' })).toThrow(
      /DASHBOARD_FRAME_ANCESTORS: not an origin/,
    );
    expect(() => loadConfig({ DASHBOARD_FRAME_ANCESTORS: "'unsafe-inline'" })).toThrow(
      /DASHBOARD_FRAME_ANCESTORS/,
    );
  });
});
