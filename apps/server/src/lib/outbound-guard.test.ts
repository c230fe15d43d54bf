import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundGuard, OutboundRefused, postChecked } from './outbound-guard';

let server: http.Server;
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.url === '/redirect') {
      response.writeHead(302, { location: '/target' }).end();
    } else if (request.url === '/big') {
      response.writeHead(200).end('x'.repeat(1_000_000));
    } else if (request.url === '/silent') {
      // Never answers: the caller's timeout must end it.
    } else {
      let body = '';
      request.on('data', (c) => (body += c));
      request.on('end', () => response.writeHead(204, { 'x-got': body }).end());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const options = { timeoutMs: 1_500, maxResponseBytes: 64 * 1024 };

describe('outbound guard', () => {
  it('refuses loopback, link-local metadata, private, IPv6 loopback, mapped and names resolving to loopback', async () => {
    const guard = new OutboundGuard();
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://172.20.0.5/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00::1]/hook',
      'http://localhost:9000/hook',
    ]) {
      await expect(guard.resolve(url), url).rejects.toBeInstanceOf(OutboundRefused);
    }
    await expect(guard.resolve('ftp://example.com/x')).rejects.toThrow('only http and https');
    await expect(guard.resolve('http://user:pw@example.com/')).rejects.toThrow('credentials');
    await expect(guard.resolve('not a url')).rejects.toThrow('not a URL');
  });

  it('lets through what PUSH_ALLOW_HOSTS lists, by address, CIDR or name', async () => {
    expect((await new OutboundGuard('127.0.0.1').resolve(`${base}/x`)).address).toBe('127.0.0.1');
    expect((await new OutboundGuard('10.0.0.0/8, 127.0.0.0/8').resolve(`${base}/x`)).address).toBe(
      '127.0.0.1',
    );
    expect((await new OutboundGuard('localhost').resolve('http://localhost:1/x')).url.hostname).toBe(
      'localhost',
    );
    // Another private range stays refused.
    await expect(new OutboundGuard('127.0.0.1').resolve('http://10.0.0.1/')).rejects.toBeInstanceOf(
      OutboundRefused,
    );
  });

  it('posts to the checked address, follows no redirect, caps the answer and gives up on silence', async () => {
    const guard = new OutboundGuard('127.0.0.1');
    const posted = await postChecked(
      await guard.resolve(`${base}/hook`),
      '{"a":1}',
      { 'x-event': 'test' },
      options,
    );
    expect(posted.status).toBe(204);
    const redirected = await postChecked(await guard.resolve(`${base}/redirect`), '{}', {}, options);
    expect(redirected.status).toBe(302);
    expect(seen).not.toContain('POST /target');
    expect(seen).not.toContain('GET /target');
    const big = await postChecked(await guard.resolve(`${base}/big`), '{}', {}, options);
    expect(big.body.length).toBe(64 * 1024);
    const started = Date.now();
    await expect(postChecked(await guard.resolve(`${base}/silent`), '{}', {}, options)).rejects.toThrow(
      'no answer within 1500 ms',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
