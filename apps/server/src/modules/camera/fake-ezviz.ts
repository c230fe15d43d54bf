import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoFixtureFile } from './camera-demo-stream';

export const FAKE_APP_KEY = 'ezviz-app-key-1234';
export const FAKE_APP_SECRET = 'ezviz-app-secret-5678';

export interface FakeEzvizRequest {
  path: string;
  form: Record<string, string>;
  contentType: string;
}

/**
 * A local stand-in for the EZVIZ open platform that checks what it is sent: form-encoded POSTs,
 * the app key and secret on `token/get`, a token it issued (and has not expired) everywhere else.
 * `mode` makes the capture hang or fail, for the alarm tests.
 */
export async function startFakeEzviz() {
  const requests: FakeEzvizRequest[] = [];
  let issued = 0;
  const live = new Set<string>();
  const state = {
    /** epoch ms the next token says it expires. */
    tokenExpiresAt: Date.now() + 7 * 86_400_000,
    capture: 'ok' as 'ok' | 'hang' | 'fail',
  };
  const picture = readFileSync(demoFixtureFile('snapshot.jpg')!);
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({ path, form, contentType: String(req.headers['content-type'] ?? '') });
      const json = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && path === '/pictures/capture.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end(picture);
        return;
      }
      if (
        req.method !== 'POST' ||
        !req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      )
        return json({ code: '10001', msg: 'parameter error' });
      if (path === '/api/lapp/token/get') {
        if (form.appKey !== FAKE_APP_KEY) return json({ code: '10017', msg: 'appKey does not exist' });
        if (form.appSecret !== FAKE_APP_SECRET)
          return json({ code: '10030', msg: 'appKey and appSecret mismatch' });
        issued += 1;
        const token = `at.fake-${issued}`;
        live.add(token);
        return json({
          code: '200',
          msg: 'ok',
          data: { accessToken: token, expireTime: state.tokenExpiresAt },
        });
      }
      if (!form.accessToken || !live.has(form.accessToken))
        return json({ code: '10002', msg: 'accessToken expired or abnormal' });
      switch (path) {
        case '/api/lapp/device/list':
          return json({
            code: '200',
            page: { total: 2, page: Number(form.pageStart), size: Number(form.pageSize) },
            data: [
              { deviceSerial: 'E10001', deviceName: 'Cold room door', deviceType: 'C6N', status: 1 },
              { deviceSerial: 'E10002', deviceName: 'Dock', deviceType: 'C3W', status: 0 },
            ],
          });
        case '/api/lapp/v2/live/address/get':
          if (form.deviceSerial === 'E10002') return json({ code: '20007', msg: 'device offline' });
          return json({
            code: '200',
            data: {
              url: `https://hls.example.test/${form.deviceSerial}/${form.channelNo}.m3u8?protocol=${form.protocol}`,
              expireTime: '2030-01-01 08:00:00',
            },
          });
        case '/api/lapp/device/capture':
          if (state.capture === 'hang') return; // never answers
          if (state.capture === 'fail') return json({ code: '20007', msg: 'device offline' });
          return json({ code: '200', data: { picUrl: `${url}/pictures/capture.jpg` } });
        default:
          return json({ code: '10001', msg: `unknown path ${path}` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    state,
    /** Makes every token issued so far dead, as EZVIZ does when a token is refreshed elsewhere. */
    killTokens: () => live.clear(),
    tokensIssued: () => issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
