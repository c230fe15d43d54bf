import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config';
import { loginLog } from '../modules/audit/audit.table';
import { useTestApp } from '../test/build-app';

/*
 * The client address keys the login and code rate limits, the abnormal-login check and the login
 * log; X-Forwarded-For may name it only when a configured proxy sends it (TRUST_PROXY).
 */

const LIMIT = 5;

function attemptLogin(app: FastifyInstance, account: string, peer: string, forwardedFor?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/doLogin',
    remoteAddress: peer,
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    payload: JSON.stringify({ account, password: 'Wrong1234', type: 1, platform: 1 }),
  });
}

async function loggedAddress(app: FastifyInstance, account: string) {
  const [row] = await app.db
    .select({ ip: loginLog.ip })
    .from(loginLog)
    .where(eq(loginLog.account, account))
    .orderBy(desc(loginLog.id))
    .limit(1);
  return row?.ip;
}

describe('without TRUST_PROXY', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: LIMIT, codeRateLimitPerMinute: LIMIT });

  it('ignores X-Forwarded-For: rotating it does not escape the login rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const response = await attemptLogin(
        ctx.app,
        `nobody${i}@example.com`,
        '198.51.100.9',
        `203.0.113.${i}`,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(statuses[LIMIT]).toBe(429);
  });

  it('ignores X-Forwarded-For: rotating it does not escape the code rate limit either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/register/registerAccount',
        remoteAddress: '198.51.100.11',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${100 + i}` },
        // Refused by validation: only the limiter's count matters here.
        payload: JSON.stringify({}),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
  });

  it('writes the connecting address into the login log, not the claimed one', async () => {
    await attemptLogin(ctx.app, 'claims@example.com', '198.51.100.10', '203.0.113.99');
    expect(await loggedAddress(ctx.app, 'claims@example.com')).toBe('198.51.100.10');
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: LIMIT, trustProxy: ['10.0.0.0/8'] });

  it("uses the trusted proxy's X-Forwarded-For: each client behind it has its own limit and address", async () => {
    for (let i = 0; i <= LIMIT; i++) {
      const response = await attemptLogin(ctx.app, `client${i}@example.com`, '10.1.2.3', `203.0.113.${i}`);
      expect(response.statusCode).toBe(200);
    }
    expect(await loggedAddress(ctx.app, 'client3@example.com')).toBe('203.0.113.3');
  });

  it('still ignores the header from a peer that is not the proxy', async () => {
    await attemptLogin(ctx.app, 'direct@example.com', '198.51.100.20', '203.0.113.50');
    expect(await loggedAddress(ctx.app, 'direct@example.com')).toBe('198.51.100.20');
  });
});

describe('TRUST_PROXY setting', () => {
  it('is off by default and takes addresses, CIDRs or a hop count', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    const hops = loadConfig({ TRUST_PROXY: '2' }).trustProxy as (a: string, hop: number) => boolean;
    expect([hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
  });

  it('stops the server with a message naming the variable and the bad entry', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.example.com' })).toThrow(
      /TRUST_PROXY: .*proxy\.example\.com/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });
});
