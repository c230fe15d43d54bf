import { and, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { call, useTestApp } from '../../test/build-app';
import { startSmtpSink } from '../../test/smtp-sink';
import { alarmFixture, postReadings } from '../alarms/alarm-test-support';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { DEMO_CREDIT, seedDemo } from '../demo/demo-seed';
import { notices } from '../notices/notices.table';
import { users } from '../users/users.table';
import { wechatChannel } from './channels/wechat';
import { creditBalance, creditCost, grantCredit } from './credits.service';
import { createDeliveryWorker } from './delivery';
import { creditLedger, notificationDeliveries } from './delivery.table';
import { startFakeTwilio, startFakeWechat } from './delivery-test-support';

const twilio = await startFakeTwilio();
const smtp = await startSmtpSink();
const wechat = await startFakeWechat('wx-app', 'wx-secret');
const wechatConfig = { baseUrl: wechat.url, appId: 'wx-app', appSecret: 'wx-secret', templateId: 'TPL-1' };
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'secret-token';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('alarm delivery', () => {
  const ctx = useTestApp({
    loginRateLimitPerMinute: 10_000,
    smtpUrl: smtp.url,
    twilio: {
      baseUrl: twilio.url,
      accountSid: SID,
      authToken: TOKEN,
      from: '+15550000001',
      whatsappFrom: '+15550000002',
    },
    wechat: wechatConfig,
    delivery: {
      // Long poll: the tests that start the worker prove that the engine wakes it.
      pollMs: 60_000,
      maxAttempts: 3,
      retryBaseMs: 40,
      retryMaxMs: 10_000,
      // Generous: on a loaded machine the first SMTP handshake alone has taken over 1.5 s, and a
      // timed-out send is retried (sent twice). The lease stays several timeouts long, as in
      // config.ts; the restart test moves a worker's clock past it rather than waiting.
      leaseMs: 20_000,
      httpTimeoutMs: 5_000,
      dailyCapPerPhone: 40,
      batchSize: 20,
    },
  });
  afterAll(async () => {
    await twilio.close();
    await smtp.close();
    await wechat.close();
  });
  beforeEach(() => twilio.reset());

  /** A company with credit, an admin with a phone, a rule on `channels`, and one alarm raised over HTTP. */
  async function raiseAlarm(
    channels: string[],
    options: { credit?: number; phone?: string; wechatOpenId?: string } = {},
  ) {
    const f = await alarmFixture(ctx.app);
    if (options.credit !== 0) await grantCredit(ctx.app.db, f.company.id, options.credit ?? 100);
    await ctx.app.db
      .update(users)
      .set({
        phone: options.phone ?? '+8613800138000',
        // Bound in the personal centre and following the official account.
        ...(options.wechatOpenId ? { wechatOpenId: options.wechatOpenId, wechatFollowed: true } : {}),
      })
      .where(eq(users.id, f.company.admin.id));
    expect((await f.save({ channels })).body.msgCode).toBe(200);
    const now = Date.now();
    await postReadings(ctx.app, f.device, [{ ts: now - 1000, v: 5 }]);
    const ack = await postReadings(ctx.app, f.device, [{ ts: now, v: 9.4 }]);
    expect(ack.statusCode).toBe(200);
    await ctx.app.alarms.idle();
    const [record] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(f.device.id)));
    return { ...f, record: record! };
  }

  const rowsOf = async (alarmId: number) =>
    (
      await ctx.app.db
        .select({ n: alarmNotifications, d: notificationDeliveries })
        .from(alarmNotifications)
        .leftJoin(notificationDeliveries, eq(notificationDeliveries.notificationId, alarmNotifications.id))
        .where(eq(alarmNotifications.alarmId, alarmId))
        .orderBy(alarmNotifications.id)
    ).map((r) => ({ ...r.n, delivery: r.d }));

  const statusesOf = async (alarmId: number) =>
    Object.fromEntries((await rowsOf(alarmId)).map((r) => [r.channel, r.status]));

  it('reading out of range -> alarm -> e-mail at the SMTP server, SMS, call and WhatsApp at Twilio, WeChat template message, credit debited', async () => {
    const wechatSendsBefore = wechat.sends.length;
    const a = await raiseAlarm(['email', 'sms', 'call', 'whatsapp', 'wechat'], {
      wechatOpenId: 'oWX-OPENID-ADMIN-1',
    });
    expect(await statusesOf(a.record.id)).toMatchObject({ email: 'pending', sms: 'pending' });
    const mail = smtp.nextMail();
    await ctx.app.delivery.deliverDue();

    const received = await mail;
    expect(received.to).toEqual([a.company.admin.email]);
    expect(received.raw).toMatch(/Subject: \[ColdChain\] Alarm \(level 1\)/);
    expect(received.raw).toMatch(/Message-ID: <alarm-notification-\d+@coldchain.alarm>/i);
    expect(received.text).toContain('Temperature 1 of Vaccine fridge 1 is 9.4 °C, above the limit 8 °C');

    expect(twilio.requests).toHaveLength(3);
    const auth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
    for (const r of twilio.requests) {
      expect(r.method).toBe('POST');
      expect(r.headers.authorization).toBe(auth);
      expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(r.headers['i-twilio-idempotency-token']).toMatch(/^alarm-notification-\d+$/);
    }
    const messages = twilio.requests.filter((r) => r.path === `/2010-04-01/Accounts/${SID}/Messages.json`);
    const sms = messages.find((r) => !r.form.To!.startsWith('whatsapp:'))!;
    expect(sms.form).toEqual({
      To: '+8613800138000',
      From: '+15550000001',
      Body: '[ColdChain] Temperature 1 of Vaccine fridge 1 is 9.4 °C, above the limit 8 °C',
    });
    const whatsapp = messages.find((r) => r.form.To!.startsWith('whatsapp:'))!;
    expect(whatsapp.form).toEqual({
      To: 'whatsapp:+8613800138000',
      From: 'whatsapp:+15550000002',
      Body: sms.form.Body,
    });
    const callRequest = twilio.requests.find((r) => r.path === `/2010-04-01/Accounts/${SID}/Calls.json`)!;
    expect(callRequest.form.To).toBe('+8613800138000');
    expect(callRequest.form.From).toBe('+15550000001');
    expect(callRequest.form.Twiml).toContain(
      '<Say language="en-US">[ColdChain] Temperature 1 of Vaccine fridge 1 is 9.4 °C, above the limit 8 °C</Say>',
    );

    const rows = await rowsOf(a.record.id);
    expect(Object.fromEntries(rows.map((r) => [r.channel, [r.status, r.attempts]]))).toEqual({
      email: ['sent', 1],
      sms: ['sent', 1],
      call: ['sent', 1],
      whatsapp: ['sent', 1],
      wechat: ['sent', 1],
    });
    // The WeChat template message went to the admin's bound openid (WeChat costs no credit).
    const wechatSends = wechat.sends.slice(wechatSendsBefore);
    expect(wechatSends).toHaveLength(1);
    expect(wechatSends[0]!.token).toBe('TOKEN-1');
    expect(wechatSends[0]!.body).toMatchObject({
      touser: 'oWX-OPENID-ADMIN-1',
      template_id: 'TPL-1',
      client_msg_id: expect.stringMatching(/^alarm-notification-\d+$/),
    });
    expect(JSON.stringify(wechatSends[0]!.body.data)).toContain(
      'Temperature 1 of Vaccine fridge 1 is 9.4 °C, above the limit 8 °C',
    );
    expect(rows.find((r) => r.channel === 'wechat')!.delivery!.providerId).toBe('200228332');
    expect(rows.find((r) => r.channel === 'sms')!.delivery!.providerId).toMatch(/^SM/);

    // SMS: 1 credit per 70 characters (the body is 78), call, e-mail, WhatsApp 1 each.
    expect(creditCost('sms', sms.form.Body!)).toBe(2);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(100 - 2 - 1 - 1 - 1);
    const ledger = await ctx.app.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.companyId, a.company.id), eq(creditLedger.kind, 'debit')));
    expect(ledger.map((l) => `${l.channel}:${l.amount}`).sort()).toEqual([
      'call:-1',
      'email:-1',
      'sms:-2',
      'whatsapp:-1',
    ]);

    // Nothing is sent twice.
    await ctx.app.delivery.deliverDue();
    expect(twilio.requests).toHaveLength(3);

    // The alarm's detail shows every message's delivery, addresses masked.
    const { body } = await call<
      {
        channel: string;
        recipient: string;
        status: string;
        statusText: string;
        attempts: number;
        sentAt: number | null;
      }[]
    >(ctx.app, '/api/alarm/alarmNotifications', { id: String(a.record.id) }, { ...a.as, language: 'cn' });
    expect(body.msgCode).toBe(200);
    const byChannel = Object.fromEntries(body.data.map((n) => [n.channel, n]));
    expect(byChannel.sms).toMatchObject({
      recipient: '+86138****8000',
      status: 'sent',
      statusText: '已发送',
      attempts: 1,
    });
    expect(byChannel.sms!.sentAt).toEqual(expect.any(Number));
    expect(byChannel.email!.recipient).toMatch(/^u\*\*\*@example\.com$/);
    expect(byChannel.wechat).toMatchObject({ status: 'sent', recipient: 'oWX-OPENID****IN-1', attempts: 1 });

    // Another company cannot read them.
    const stranger = await alarmFixture(ctx.app, 'Other fridge');
    const denied = await call(
      ctx.app,
      '/api/alarm/alarmNotifications',
      { id: String(a.record.id) },
      stranger.as,
    );
    expect(denied.body.msgCode).not.toBe(200);
    expect(denied.body.data ?? null).toBeNull();
  });

  it('retries with exponential backoff after provider 500s, then succeeds once', async () => {
    const a = await raiseAlarm(['sms']);
    twilio.fail(2, 500);
    // A worker on a clock the test moves by hand: the schedule is checked to the millisecond, and
    // no retry window can close while a loaded machine is still between two steps.
    let now = Date.now();
    const worker = createDeliveryWorker(ctx.app.db, ctx.config, null, ctx.app.log, () => new Date(now));
    const deliverAt = async (at: number) => {
      now = at;
      await worker.deliverDue();
      return (await rowsOf(a.record.id))[0]!;
    };

    const firstFailure = now;
    let row = await deliverAt(firstFailure);
    expect(row).toMatchObject({ status: 'retrying', attempts: 1, sentAt: null });
    expect(row.lastError).toContain('500');
    expect(row.delivery!.nextAttemptAt!.getTime()).toBe(firstFailure + 40); // retryBaseMs

    row = await deliverAt(firstFailure + 39);
    expect(row).toMatchObject({ status: 'retrying', attempts: 1 }); // not due yet
    expect(twilio.requests).toHaveLength(1);

    const secondFailure = firstFailure + 40;
    row = await deliverAt(secondFailure);
    expect(row).toMatchObject({ status: 'retrying', attempts: 2 });
    expect(twilio.requests).toHaveLength(2);
    // Doubled: 80 ms after the second failure.
    expect(row.delivery!.nextAttemptAt!.getTime()).toBe(secondFailure + 80);

    row = await deliverAt(secondFailure + 79);
    expect(row).toMatchObject({ status: 'retrying', attempts: 2 });
    expect(twilio.requests).toHaveLength(2);

    row = await deliverAt(secondFailure + 80);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(row.sentAt!.getTime()).toBe(secondFailure + 80);
    expect(twilio.requests).toHaveLength(3);
    expect(new Set(twilio.requests.map((r) => r.headers['i-twilio-idempotency-token'])).size).toBe(1);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(98); // debited once

    // Sent is final, however late the clock.
    await deliverAt(secondFailure + 60_000);
    expect(twilio.requests).toHaveLength(3);
  });

  it('gives up after the maximum attempts and refunds the credit; a permanent error gives up at once', async () => {
    const a = await raiseAlarm(['sms']);
    twilio.fail(10, 503);
    for (let i = 0; i < 3; i++) {
      await ctx.app.delivery.deliverDue();
      await sleep(200);
    }
    const [row] = await rowsOf(a.record.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row!.lastError).toContain('503');
    expect(twilio.requests).toHaveLength(3);
    await sleep(200);
    await ctx.app.delivery.deliverDue();
    expect(twilio.requests).toHaveLength(3);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(100);

    twilio.reset();
    const b = await raiseAlarm(['call']);
    twilio.fail(1, 400);
    await ctx.app.delivery.deliverDue();
    expect((await rowsOf(b.record.id))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('a slow provider does not delay the ingest acknowledgement; the engine wakes the worker', async () => {
    // The provider takes 4 s; an acknowledgement that waited for it would take as long. The bounds
    // leave room for a slow CI machine running suites side by side (500 ms was once exceeded).
    twilio.slow(4_000);
    ctx.app.delivery.start();
    try {
      const started = Date.now();
      const a = await raiseAlarm(['sms']);
      // While the provider is still answering, more readings are acknowledged at once.
      await sleep(100);
      const t0 = Date.now();
      const ack = await postReadings(ctx.app, a.device, [{ ts: Date.now(), v: 9.6 }]);
      expect(ack.statusCode).toBe(200);
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(twilio.requests).toHaveLength(0);
      // Woken right after the commit (the poll interval is a minute here).
      await twilio.waitForRequests(1);
      await ctx.app.delivery.idle();
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await statusesOf(a.record.id)).toEqual({ sms: 'sent' });
    } finally {
      await ctx.app.delivery.stop();
    }
  });

  it('without credit: not sent, marked "no credit", administrators told once a day', async () => {
    const a = await raiseAlarm(['sms', 'email'], { credit: 0 });
    await ctx.app.delivery.deliverDue();
    expect(await statusesOf(a.record.id)).toEqual({ sms: 'no credit', email: 'no credit' });
    expect(twilio.requests).toHaveLength(0);
    const told = await ctx.app.db
      .select()
      .from(notices)
      .where(and(eq(notices.companyId, a.company.id), eq(notices.kind, 'credit')));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ userId: a.company.admin.id, title: { en: 'Message credit used up' } });
    expect(told[0]!.content.cn).toContain('余额不足');

    // A second alarm of the same company the same day: no second notice.
    await postReadings(ctx.app, a.device, [{ ts: Date.now() + 1000, v: 5 }]);
    await postReadings(ctx.app, a.device, [{ ts: Date.now() + 2000, v: 9.9 }]);
    await ctx.app.alarms.idle();
    await ctx.app.delivery.deliverDue();
    const all = await ctx.app.db
      .select()
      .from(alarmNotifications)
      .where(eq(alarmNotifications.companyId, a.company.id));
    expect(all.map((n) => n.status)).toEqual(['no credit', 'no credit', 'no credit', 'no credit']);
    expect(
      await ctx.app.db
        .select()
        .from(notices)
        .where(and(eq(notices.companyId, a.company.id), eq(notices.kind, 'credit'))),
    ).toHaveLength(1);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(0);
  });

  it('at most 40 alarm records per phone number a day', async () => {
    const phone = '+8613900139000';
    // 40 alarms already sent to this number today (another company's, the cap is per number).
    const earlier = await raiseAlarm(['sms'], { phone });
    await ctx.app.delivery.deliverDue();
    const template = (await rowsOf(earlier.record.id))[0]!;
    const ids = await ctx.app.db
      .insert(alarmRecords)
      .values(
        Array.from({ length: 39 }, (_, i) => ({
          companyId: earlier.company.id,
          deviceId: Number(earlier.device.id),
          alarmType: 'overLimit',
          level: 1,
          alarmTime: new Date(),
          excursionStart: new Date(),
          dedupeKey: `cap-test:${i}`,
          content: { en: 'x', cn: 'x' },
        })),
      )
      .returning({ id: alarmRecords.id });
    const sent = await ctx.app.db
      .insert(alarmNotifications)
      .values(
        ids.map(({ id }) => ({
          companyId: earlier.company.id,
          alarmId: id,
          userId: template.userId,
          channel: 'call',
          level: 1,
          status: 'sent',
          attempts: 1,
          sentAt: new Date(),
        })),
      )
      .returning({ id: alarmNotifications.id });
    await ctx.app.db
      .insert(notificationDeliveries)
      .values(sent.map(({ id }) => ({ notificationId: id, recipient: phone })));
    twilio.reset();

    const a = await raiseAlarm(['sms', 'call', 'email'], { phone });
    await ctx.app.delivery.deliverDue();
    expect(await statusesOf(a.record.id)).toEqual({
      sms: 'daily cap reached',
      call: 'daily cap reached',
      email: 'sent',
    });
    expect(twilio.requests).toHaveLength(0);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(99); // the e-mail only
    await smtp.nextMail();

    // Another number is not capped.
    const b = await raiseAlarm(['sms'], { phone: '+8613700137000' });
    await ctx.app.delivery.deliverDue();
    expect(await statusesOf(b.record.id)).toEqual({ sms: 'sent' });
  });

  it('survives a restart: rows claimed by a process that died are delivered once by a new worker', async () => {
    const a = await raiseAlarm(['sms', 'call']);
    // The first process claims the rows, then dies before sending anything.
    const claimedAt = Date.now();
    const { rows, token } = await ctx.app.delivery.claim(new Date(claimedAt));
    expect(rows.map((r) => r.alarmId)).toEqual([a.record.id, a.record.id]);
    expect(Object.values(await statusesOf(a.record.id))).toEqual(['sending', 'sending']);

    // A new process on the same database, on a clock the test moves rather than sleeping out the lease.
    const { leaseMs } = ctx.config.delivery;
    let now = claimedAt + leaseMs - 1;
    const second = createDeliveryWorker(ctx.app.db, ctx.config, null, ctx.app.log, () => new Date(now));
    await second.deliverDue();
    expect(twilio.requests).toHaveLength(0); // the lease still holds
    now = claimedAt + leaseMs;
    await second.deliverDue();
    expect(await statusesOf(a.record.id)).toEqual({ sms: 'sent', call: 'sent' });
    expect(twilio.requests).toHaveLength(2);
    expect((await rowsOf(a.record.id)).map((r) => r.attempts)).toEqual([2, 2]);

    // The first process was only stalled, not dead: its late attempt finds its claim gone and
    // sends nothing.
    await ctx.app.delivery.process(rows[0]!, token);
    expect(twilio.requests).toHaveLength(2);

    // Nothing is sent again, by either worker.
    now = claimedAt + 2 * leaseMs;
    await second.deliverDue();
    await ctx.app.delivery.deliverDue();
    expect(twilio.requests).toHaveLength(2);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(100 - 2 - 1);
  });

  it('two workers on one database deliver each message exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    const alarms = [];
    for (let i = 0; i < 3; i++) alarms.push(await raiseAlarm(['sms', 'call', 'whatsapp']));
    const other = await buildApp({ config: ctx.config, database: ctx.database, logger: false as never });
    await other.ready();
    try {
      await Promise.all([ctx.app.delivery.deliverDue(), other.delivery.deliverDue()]);
    } finally {
      await other.close();
    }
    for (const a of alarms)
      expect(await statusesOf(a.record.id)).toEqual({ sms: 'sent', call: 'sent', whatsapp: 'sent' });
    expect(twilio.requests).toHaveLength(9);
    expect(new Set(twilio.requests.map((r) => r.headers['i-twilio-idempotency-token'])).size).toBe(9);
  });

  it('a channel without provider settings marks its rows "not configured", never drops them', async () => {
    const a = await raiseAlarm(['sms', 'whatsapp', 'email']);
    const bare = await buildApp({
      config: { ...ctx.config, twilio: undefined, smtpUrl: undefined },
      database: ctx.database,
      logger: false as never,
    });
    await bare.ready();
    try {
      await bare.delivery.deliverDue();
    } finally {
      await bare.close();
    }
    expect(await statusesOf(a.record.id)).toEqual({
      sms: 'not configured',
      whatsapp: 'not configured',
      email: 'not configured',
    });
    expect(twilio.requests).toHaveLength(0);
    expect(await creditBalance(ctx.app.db, a.company.id)).toBe(100);
  });

  it('WeChat: a user without a bound openid, or who turned the messages off, gets no message', async () => {
    const unbound = await raiseAlarm(['wechat']);
    const sendsBefore = wechat.sends.length;
    await ctx.app.delivery.deliverDue();
    expect(await statusesOf(unbound.record.id)).toEqual({ wechat: 'no recipient address' });

    const muted = await raiseAlarm(['wechat'], { wechatOpenId: 'oWX-OPENID-MUTED' });
    await ctx.app.db.update(users).set({ wechatFollowed: false }).where(eq(users.id, muted.company.admin.id));
    await ctx.app.delivery.deliverDue();
    expect(await statusesOf(muted.record.id)).toEqual({ wechat: 'no recipient address' });
    expect(wechat.sends.length).toBe(sendsBefore);
  });

  it('WeChat adapter: the address is the followed openid; access token, then the template message', async () => {
    const adapter = wechatChannel(wechatConfig, 1_000);
    expect(adapter.configured).toBe(true);
    const person = { userId: 1, name: 'x', email: 'a@b.c', phone: '+8613800138000' };
    expect(adapter.address(person)).toBeNull();
    expect(adapter.address({ ...person, wechatOpenId: 'OPENID-1', wechatFollowed: false })).toBeNull();
    expect(adapter.address({ ...person, wechatOpenId: 'OPENID-1', wechatFollowed: true })).toBe('OPENID-1');
    const tokensBefore = wechat.tokenRequests.length;
    const sendsBefore = wechat.sends.length;
    const message = {
      to: 'OPENID-1',
      subject: 'S',
      text: 'T',
      language: 'en' as const,
      idempotencyKey: 'alarm-notification-7',
      notificationId: 7,
    };
    expect(await adapter.send(message)).toBe('200228332');
    expect(await adapter.send(message)).toBe('200228332');
    expect(wechat.tokenRequests).toHaveLength(tokensBefore + 1); // cached
    expect(wechat.sends[sendsBefore]).toEqual({
      token: 'TOKEN-1',
      body: {
        touser: 'OPENID-1',
        template_id: 'TPL-1',
        client_msg_id: 'alarm-notification-7',
        data: { first: { value: 'S' }, remark: { value: 'T' } },
      },
    });
    const wrong = wechatChannel({ ...wechatConfig, appSecret: 'bad' }, 1_000);
    await expect(wrong.send(message)).rejects.toThrow(/invalid appid/);
  });

  it('the demo company starts with message credit', async () => {
    const { companyId } = await seedDemo(ctx.app.db);
    expect(await creditBalance(ctx.app.db, companyId!)).toBe(DEMO_CREDIT);
  });
});
