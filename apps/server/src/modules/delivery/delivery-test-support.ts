import { createServer, type IncomingMessage } from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form-encoded or JSON body, parsed. */
  form: Record<string, string>;
  raw: string;
}

/**
 * A local Twilio-compatible REST server for tests: it records every request, answers like Twilio
 * (201 with a sid), and can be told to fail the next requests or to answer slowly.
 */
export async function startFakeTwilio() {
  const requests: ReceivedRequest[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let failures: number[] = [];
  let delayMs = 0;
  let sid = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', async () => {
      const form = req.headers['content-type']?.includes('json')
        ? (JSON.parse(raw || '{}') as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(raw));
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form, raw });
      for (const w of [...waiting]) {
        if (requests.length >= w.count) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      }
      const failure = failures.shift();
      if (failure) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 20500, message: 'fake provider failure', status: failure }));
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid: `SM${String(++sid).padStart(32, '0')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next `count` requests are answered with `status`. */
    fail(count: number, status = 500) {
      failures = Array.from({ length: count }, () => status);
    },
    slow(ms: number) {
      delayMs = ms;
    },
    reset() {
      requests.length = 0;
      failures = [];
      delayMs = 0;
    },
    /** Resolves once `count` requests have arrived in all. */
    waitForRequests(count: number) {
      return new Promise<void>((resolve) => {
        if (requests.length >= count) resolve();
        else waiting.push({ count, resolve });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A local WeChat official-account API for tests: `/cgi-bin/token` hands out a token for the right
 * app id and secret, `/cgi-bin/message/template/send` records what it gets (and checks the token).
 */
export async function startFakeWechat(appId: string, appSecret: string) {
  const tokenRequests: string[] = [];
  const sends: { token: string; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (url.pathname === '/cgi-bin/token') {
        tokenRequests.push(url.search);
        const good =
          url.searchParams.get('grant_type') === 'client_credential' &&
          url.searchParams.get('appid') === appId &&
          url.searchParams.get('secret') === appSecret;
        res.end(
          JSON.stringify(
            good
              ? { access_token: 'TOKEN-1', expires_in: 7200 }
              : { errcode: 40013, errmsg: 'invalid appid' },
          ),
        );
        return;
      }
      if (url.pathname === '/cgi-bin/message/template/send' && req.method === 'POST') {
        const token = url.searchParams.get('access_token') ?? '';
        sends.push({ token, body: JSON.parse(raw) as Record<string, unknown> });
        res.end(
          JSON.stringify(
            token === 'TOKEN-1'
              ? { errcode: 0, errmsg: 'ok', msgid: 200228332 }
              : { errcode: 40001, errmsg: 'invalid credential' },
          ),
        );
        return;
      }
      res.end(JSON.stringify({ errcode: 404, errmsg: 'unknown path' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    tokenRequests,
    sends,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
