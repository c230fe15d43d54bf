import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { call, useTestApp } from '../../test/build-app';
import { creditBalance, creditCost } from './credits.service';
import { createDeliveryWorker } from './delivery';
import { notificationsOf, raiseAlarm, startFakeTwilio, twilioStatusCallback } from './delivery-test-support';

const twilio = await startFakeTwilio();
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'secret-token';
/** The platform's public address: Twilio calls it, so the signature covers it (not the Host header). */
const PUBLIC_URL = 'https://cold.example.com';

/**
 * SMS and calls through a Twilio-compatible API, judged by what the provider says: a 2xx that is
 * not a sent message is a failure sorted by its error code, and the status callbacks (signed with
 * the auth token) turn "sent" into "delivered" or "failed" on the alarm's notification list.
 */
describe('Twilio answers and delivery receipts', () => {
  const ctx = useTestApp({
    loginRateLimitPerMinute: 10_000,
    publicUrl: PUBLIC_URL,
    twilio: {
      baseUrl: twilio.url,
      accountSid: SID,
      authToken: TOKEN,
      from: '+15550000001',
      whatsappFrom: '+15550000002',
    },
  });
  afterAll(() => twilio.close());
  beforeEach(() => twilio.reset());

  /** Posts a status callback to the app as Twilio would, by default signed correctly. */
  async function postCallback(
    request: (typeof twilio.requests)[number],
    fields: Record<string, string>,
    signWith = TOKEN,
    signature?: string,
  ) {
    const signed = twilioStatusCallback(request, fields, signWith);
    return ctx.app.inject({
      method: 'POST',
      url: signed.url.pathname + signed.url.search,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature === '' ? {} : { 'x-twilio-signature': signature ?? signed.signature }),
      },
      payload: signed.body,
    });
  }

  it('a 200 that says "failed" with error 63016 and no sid is not "sent": failed at once, not retried, credit back', async () => {
    const a = await raiseAlarm(ctx.app, ['sms']);
    twilio.answer(200, { status: 'failed', error_code: 63016, error_message: 'outside the allowed window' });
    await ctx.app.delivery.deliverDue();
    const [row] = await notificationsOf(ctx.app, a.record.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(row!.lastError).toContain('63016');
    await ctx.app.delivery.deliverDue();
    expect(twilio.requests).toHaveLength(1);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(100);
  });

  it('WhatsApp through Twilio is judged the same way: the 63016 answer is failed; a signed "read" is delivered', async () => {
    const refused = await raiseAlarm(ctx.app, ['whatsapp']);
    twilio.answer(200, { status: 'failed', error_code: 63016 });
    await ctx.app.delivery.deliverDue();
    expect((await notificationsOf(ctx.app, refused.record.id))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
    });

    const a = await raiseAlarm(ctx.app, ['whatsapp'], { phone: '+8613800138099' });
    await ctx.app.delivery.deliverDue();
    const request = twilio.requests.at(-1)!;
    expect(request.form).toMatchObject({ To: 'whatsapp:+8613800138099', From: 'whatsapp:+15550000002' });
    const [row] = await notificationsOf(ctx.app, a.record.id);
    expect(request.form.StatusCallback).toBe(`${PUBLIC_URL}/hooks/twilio/status?notification=${row!.id}`);
    await postCallback(request, { MessageSid: row!.delivery!.providerId!, MessageStatus: 'read' });
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('delivered');
  });

  it('sorts errors: 21211 and 21610 give up at once; 429, 5xx and a 2xx without a sid are retried', async () => {
    // A worker on a clock the test moves: a second per step keeps earlier retries (30 s backoff)
    // out of the way; an hour later every retry is due. Nothing sleeps.
    let now = Date.now();
    const worker = createDeliveryWorker(ctx.app.db, ctx.config, null, ctx.app.log, () => new Date(now));
    const outcome = async (answer: () => void) => {
      const a = await raiseAlarm(ctx.app, ['sms']);
      answer();
      now += 1_000;
      await worker.deliverDue();
      return (await notificationsOf(ctx.app, a.record.id))[0]!;
    };
    expect(await outcome(() => twilio.fail(1, 400, 21211))).toMatchObject({ status: 'failed' });
    expect(await outcome(() => twilio.fail(1, 400, 21610))).toMatchObject({ status: 'failed' });
    const limited = await outcome(() => twilio.fail(1, 429, 20429));
    expect(limited).toMatchObject({ status: 'retrying' });
    expect(await outcome(() => twilio.fail(1, 503))).toMatchObject({ status: 'retrying' });
    expect(await outcome(() => twilio.answer(201, { status: 'queued' }))).toMatchObject({
      status: 'retrying',
    });
    // The rate-limited one goes out on its retry.
    now += 3_600_000;
    await worker.deliverDue();
    expect((await notificationsOf(ctx.app, limited.alarmId))[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
  });

  it('asks for a status callback at PUBLIC_URL; a signed "delivered" makes the message delivered on the list', async () => {
    const a = await raiseAlarm(ctx.app, ['sms', 'call']);
    await ctx.app.delivery.deliverDue();
    const [sms, callRow] = await notificationsOf(ctx.app, a.record.id);
    expect([sms!.status, callRow!.status]).toEqual(['sent', 'sent']);
    const smsRequest = twilio.requests.find((r) => r.path.endsWith('/Messages.json'))!;
    const callRequest = twilio.requests.find((r) => r.path.endsWith('/Calls.json'))!;
    expect(smsRequest.form.StatusCallback).toBe(`${PUBLIC_URL}/hooks/twilio/status?notification=${sms!.id}`);
    expect(callRequest.form.StatusCallback).toBe(
      `${PUBLIC_URL}/hooks/twilio/status?notification=${callRow!.id}`,
    );

    const smsSid = sms!.delivery!.providerId!;
    // Twilio reports "sent" first: nothing final, nothing changes.
    expect((await postCallback(smsRequest, { MessageSid: smsSid, MessageStatus: 'sent' })).statusCode).toBe(
      204,
    );
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('sent');
    const delivered = await postCallback(smsRequest, {
      AccountSid: SID,
      MessageSid: smsSid,
      MessageStatus: 'delivered',
      To: '+8613800138000',
    });
    expect(delivered.statusCode).toBe(204);
    // The call was not answered.
    await postCallback(callRequest, { CallSid: callRow!.delivery!.providerId!, CallStatus: 'no-answer' });

    const list = await call<
      { channel: string; status: string; statusText: string; lastError: string | null }[]
    >(ctx.app, '/api/alarm/alarmNotifications', { id: String(a.record.id) }, { ...a.as, language: 'cn' });
    const byChannel = Object.fromEntries(list.body.data.map((n) => [n.channel, n]));
    expect(byChannel.sms).toMatchObject({ status: 'delivered', statusText: '已送达', lastError: null });
    expect(byChannel.call).toMatchObject({ status: 'failed', statusText: '发送失败，已放弃' });
    expect(byChannel.call!.lastError).toContain('no-answer');
    // The unanswered call's credit comes back; the delivered SMS's does not.
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(
      100 - creditCost('sms', smsRequest.form.Body!),
    );

    // Delivered is final: a late, out-of-order "failed" changes nothing.
    await postCallback(smsRequest, { MessageSid: smsSid, MessageStatus: 'undelivered', ErrorCode: '30005' });
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('delivered');
  });

  it('a failed receipt shows the provider error; unsigned, wrongly signed or misdirected callbacks are refused', async () => {
    const a = await raiseAlarm(ctx.app, ['sms']);
    await ctx.app.delivery.deliverDue();
    const [row] = await notificationsOf(ctx.app, a.record.id);
    const request = twilio.requests[0]!;
    const fields = { MessageSid: row!.delivery!.providerId!, MessageStatus: 'failed', ErrorCode: '30006' };

    expect((await postCallback(request, fields, TOKEN, '')).statusCode).toBe(403);
    expect((await postCallback(request, fields, 'not-the-token')).statusCode).toBe(403);
    // Signed for other parameters than those sent: refused.
    const signedOther = twilioStatusCallback(request, { ...fields, MessageStatus: 'delivered' }, TOKEN);
    const tampered = await postCallback(request, fields, TOKEN, signedOther.signature);
    expect(tampered.statusCode).toBe(403);
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('sent');
    // A correctly signed receipt naming another message's sid does not touch this row.
    await postCallback(request, { ...fields, MessageSid: 'SM-not-ours' });
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('sent');
    // Nor does one signed for another notification's address that names this message's sid.
    const elsewhere = {
      ...request,
      form: { StatusCallback: `${PUBLIC_URL}/hooks/twilio/status?notification=${row!.id + 1000}` },
    };
    expect((await postCallback(elsewhere, fields)).statusCode).toBe(204);
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('sent');

    expect((await postCallback(request, fields)).statusCode).toBe(204);
    const [failed] = await notificationsOf(ctx.app, a.record.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.lastError).toContain('30006');
    expect(failed!.delivery!.receiptAt).toBeInstanceOf(Date);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(100);
  });

  it('without PUBLIC_URL no status callback is requested and the callback address is closed', async () => {
    const config = { ...ctx.config, publicUrl: undefined };
    const worker = createDeliveryWorker(ctx.app.db, config, null, ctx.app.log);
    const a = await raiseAlarm(ctx.app, ['sms']);
    await worker.deliverDue();
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('sent');
    expect(twilio.requests[0]!.form).not.toHaveProperty('StatusCallback');
    expect(Object.keys(twilio.requests[0]!.form).sort()).toEqual(['Body', 'From', 'To']);

    // An app without PUBLIC_URL cannot check a signature over an address it does not know.
    const bare = await buildApp({ config, database: ctx.database, logger: false as never });
    await bare.ready();
    try {
      const signed = twilioStatusCallback(
        {
          ...twilio.requests[0]!,
          form: { StatusCallback: `${PUBLIC_URL}/hooks/twilio/status?notification=1` },
        },
        { MessageSid: 'SM1', MessageStatus: 'delivered' },
        TOKEN,
      );
      const refused = await bare.inject({
        method: 'POST',
        url: `${signed.url.pathname}${signed.url.search}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': signed.signature,
        },
        payload: signed.body,
      });
      expect(refused.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
