import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { alarmFixture, postReadings } from '../alarms/alarm-test-support';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { users } from '../users/users.table';
import { grantCredit } from './credits.service';
import { notificationDeliveries } from './delivery.table';

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
  let failures: { status: number; body: Record<string, unknown> }[] = [];
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
        res.writeHead(failure.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(failure.body));
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
    /**
     * The next `count` requests are answered with `status` and Twilio's error body; `code` is
     * Twilio's error code (none by default, as a proxy in front of it would answer).
     */
    fail(count: number, status = 500, code?: number) {
      const body = { ...(code ? { code } : {}), message: 'fake provider failure', status };
      failures = Array.from({ length: count }, () => ({ status, body }));
    },
    /** The next request is answered with exactly this (a 2xx that is not a sent message, say). */
    answer(status: number, body: Record<string, unknown>) {
      failures = [{ status, body }];
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
  /** Openids whose messages are refused with this error (43004 "require subscribe", say). */
  const refusals = new Map<string, { errcode: number; errmsg: string }>();
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
        const body = JSON.parse(raw) as Record<string, unknown>;
        sends.push({ token, body });
        const refusal = refusals.get(String(body.touser));
        res.end(
          JSON.stringify(
            token !== 'TOKEN-1'
              ? { errcode: 40001, errmsg: 'invalid credential' }
              : (refusal ?? { errcode: 0, errmsg: 'ok', msgid: 200228332 }),
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
    refusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Twilio's status callback for a message or call the fake received, as Twilio sends it: a
 * form-encoded POST to the StatusCallback address, signed with X-Twilio-Signature (base64
 * HMAC-SHA1 with the auth token of the address and the sorted parameters). Written here apart from
 * the server's own check so that the two are compared, not one with itself.
 */
export function twilioStatusCallback(
  request: ReceivedRequest,
  fields: Record<string, string>,
  authToken: string,
): { url: URL; body: string; signature: string } {
  const address = request.form.StatusCallback;
  if (!address) throw new Error('the request asked for no status callback');
  const url = new URL(address);
  const data = Object.keys(fields)
    .sort()
    .map((k) => k + fields[k])
    .join('');
  const signature = createHmac('sha1', authToken)
    .update(address + data)
    .digest('base64');
  return { url, body: new URLSearchParams(fields).toString(), signature };
}

/**
 * A local WhatsApp Cloud API (Meta Graph) for tests: `POST /{version}/{phone-number-id}/messages`
 * with the Bearer token; it checks the request as Meta would (token, template message shape) and
 * answers with a `wamid`, or with what it is told to.
 */
export async function startFakeWhatsappCloud(options: {
  token: string;
  phoneNumberId: string;
  version: string;
}) {
  const requests: ReceivedRequest[] = [];
  const bodies: Record<string, unknown>[] = [];
  let answers: { status: number; body: Record<string, unknown> }[] = [];
  let wamid = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form: {}, raw });
      if (req.method !== 'POST' || req.url !== `/${options.version}/${options.phoneNumberId}/messages`)
        return send(404, { error: { code: 100, message: 'Unsupported post request' } });
      if (req.headers.authorization !== `Bearer ${options.token}`)
        return send(401, { error: { code: 190, message: 'Invalid OAuth access token' } });
      const body = JSON.parse(raw) as Record<string, unknown>;
      bodies.push(body);
      const template = body.template as { name?: string; language?: { code?: string } } | undefined;
      if (body.messaging_product !== 'whatsapp' || body.type !== 'template' || !template?.name)
        return send(400, { error: { code: 131009, message: 'Parameter value is not valid' } });
      const next = answers.shift();
      if (next) return send(next.status, next.body);
      const id = `wamid.FAKE${String(++wamid).padStart(8, '0')}`;
      send(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id, message_status: 'accepted' }],
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bodies,
    /** The next request is answered with this. */
    answer(status: number, body: Record<string, unknown>) {
      answers = [{ status, body }];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A status webhook as Meta sends it, with its X-Hub-Signature-256 (HMAC-SHA256 with the app secret). */
export function cloudStatusWebhook(
  statuses: Record<string, unknown>[],
  appSecret: string,
): { body: string; signature: string } {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000002', phone_number_id: 'PN-1' },
              statuses,
            },
          },
        ],
      },
    ],
  });
  return { body, signature: `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}` };
}

/**
 * A company with credit, an admin with a phone (and a followed WeChat binding if asked), a rule on
 * `channels`, and one alarm raised by readings over HTTP; returns the fixture and the record.
 */
export async function raiseAlarm(
  app: FastifyInstance,
  channels: string[],
  options: { credit?: number; phone?: string; wechatOpenId?: string; language?: 'en' | 'cn' } = {},
) {
  const f = await alarmFixture(app, `Fridge ${Math.random().toString(36).slice(2, 8)}`);
  if (options.credit !== 0) await grantCredit(app.db, f.company.id, options.credit ?? 100);
  await app.db
    .update(users)
    .set({
      phone: options.phone ?? '+8613800138000',
      ...(options.language ? { language: options.language } : {}),
      ...(options.wechatOpenId ? { wechatOpenId: options.wechatOpenId, wechatFollowed: true } : {}),
    })
    .where(eq(users.id, f.company.admin.id));
  const saved = await f.save({ channels });
  if (saved.body.msgCode !== 200) throw new Error(`alarm setting refused: ${JSON.stringify(saved.body)}`);
  const now = Date.now();
  await postReadings(app, f.device, [{ ts: now - 1000, v: 5 }]);
  await postReadings(app, f.device, [{ ts: now, v: 9.4 }]);
  await app.alarms.idle();
  const [record] = await app.db
    .select()
    .from(alarmRecords)
    .where(eq(alarmRecords.deviceId, Number(f.device.id)));
  if (!record) throw new Error('no alarm raised');
  return { ...f, record };
}

/** An alarm's messages with their delivery bookkeeping, in creation order. */
export async function notificationsOf(app: FastifyInstance, alarmId: number) {
  return (
    await app.db
      .select({ n: alarmNotifications, d: notificationDeliveries })
      .from(alarmNotifications)
      .leftJoin(notificationDeliveries, eq(notificationDeliveries.notificationId, alarmNotifications.id))
      .where(eq(alarmNotifications.alarmId, alarmId))
      .orderBy(alarmNotifications.id)
  ).map((r) => ({ ...r.n, delivery: r.d }));
}

/**
 * An SMTP server (smtp-server) that keeps the first transaction waiting: before its answer to
 * RCPT TO (`stage: 'rcpt'`, the client has not sent the message yet) or before its answer to the
 * end of DATA (`stage: 'data'`, it has the whole message). Like a server that commits a message
 * when it answers, it keeps a mail only if the client is still connected to hear the answer; a
 * client that hung up before the final dot aborted the transaction (RFC 5321 section 4.1.1.4).
 * `firstDecided` resolves once the held transaction has ended either way, so a test waits for the
 * server, not for a guessed time.
 */
export async function startSlowSmtpSink(options: { stage: 'rcpt' | 'data'; delayMs: number }) {
  const accepted: { raw: string; messageId: string | null }[] = [];
  const closed = new Set<string>();
  let held = false;
  let decide: (outcome: 'accepted' | 'client gone') => void = () => {};
  const firstDecided = new Promise<'accepted' | 'client gone'>((resolve) => (decide = resolve));
  const holdFirst = (session: { id: string }, then: () => void) => {
    if (held) return then();
    held = true;
    setTimeout(() => {
      if (closed.has(session.id)) decide('client gone');
      then();
    }, options.delayMs);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onClose(session) {
      closed.add(session.id);
      if (options.stage === 'rcpt' && held) decide('client gone');
    },
    onRcptTo(_address, session, callback) {
      if (options.stage === 'rcpt') holdFirst(session, () => callback());
      else callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('error', () => {});
      stream.on('end', () => {
        const keep = () => {
          if (closed.has(session.id)) return callback(new Error('client gone'));
          accepted.push({ raw, messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? null });
          if (accepted.length === 1) decide('accepted');
          callback();
        };
        if (options.stage === 'data') holdFirst(session, keep);
        else keep();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    firstDecided,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
