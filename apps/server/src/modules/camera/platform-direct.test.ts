import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundGuard } from '../../lib/outbound-guard';
import { demoFixtureFile } from './camera-demo-stream';
import type { PlatformContext } from './camera-platforms';
import { directPlatform } from './platform-direct';

/**
 * A direct-stream camera's picture is a frame grabbed from its HLS address by Debian's ffmpeg
 * (.ci/run installs it). The committed demo clip, served by a local HTTP server, is the stream.
 */
describe('direct stream pictures', () => {
  const fixtures = path.dirname(demoFixtureFile('stream.m3u8')!);
  /** Requests for this file get no answer, once: a stalled stream. */
  let stallOnce = '';
  const server = createServer((request, response) => {
    const name = path.basename(request.url ?? '');
    if (name === stallOnce) {
      stallOnce = '';
      return;
    }
    readFile(path.join(fixtures, name)).then(
      (body) => response.writeHead(200).end(body),
      () => response.writeHead(404).end(),
    );
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const context = (allow: string, timeoutMs = 15_000): PlatformContext => ({
    credentials: null,
    tokens: { read: async () => null, save: async () => {}, clear: async () => {} },
    guard: new OutboundGuard(allow),
    options: { ezvizBaseUrl: 'https://open.ys7.com', timeoutMs },
    now: () => new Date(),
  });

  it('grabs one JPEG frame from the stream', async () => {
    const camera = { serial: 'D1', channel: 1, streamUrl: `${base}/stream.m3u8` };
    const frame = await directPlatform.snapshot(context('127.0.0.1'), camera);
    // JPEG start-of-image marker, and more than a header.
    expect([...frame.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(frame.length).toBeGreaterThan(1000);
  });

  it('gets past a stalled read within the timeout, instead of waiting all of it', async () => {
    const camera = { serial: 'D1', channel: 1, streamUrl: `${base}/stream.m3u8` };
    stallOnce = 'stream.m3u8';
    const started = Date.now();
    // A 6 s budget: a stalled read is given up after 2 s, and the grab is tried again.
    const frame = await directPlatform.snapshot(context('127.0.0.1', 6_000), camera);
    expect([...frame.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(stallOnce).toBe('');
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('refuses a private address not allowed, and says why when the stream has no picture', async () => {
    const camera = { serial: 'D1', channel: 1, streamUrl: `${base}/stream.m3u8` };
    await expect(directPlatform.snapshot(context(''), camera)).rejects.toThrow(/address refused/);
    const missing = { ...camera, streamUrl: `${base}/missing.m3u8` };
    await expect(directPlatform.snapshot(context('127.0.0.1'), missing)).rejects.toThrow(
      /no frame from the stream/,
    );
  });
});
