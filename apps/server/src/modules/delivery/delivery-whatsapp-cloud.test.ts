import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { creditBalance } from './credits.service';
import { createDeliveryWorker } from './delivery';
import {
  cloudStatusWebhook,
  notificationsOf,
  raiseAlarm,
  startFakeWhatsappCloud,
} from './delivery-test-support';

const CLOUD = { token: 'EAAG-cloud-token', phoneNumberId: '106540352242922', version: 'v21.0' };
const APP_SECRET = 'meta-app-secret';
const meta = await startFakeWhatsappCloud(CLOUD);

/**
 * WhatsApp through Meta's Cloud API (WHATSAPP_PROVIDER=cloud): an approved template in the
 * recipient's language, judged by the answer's body, and status webhooks signed with the app
 * secret that turn "sent" into "delivered" or "failed".
 */
describe('WhatsApp Cloud API', () => {
  const ctx = useTestApp({
    loginRateLimitPerMinute: 10_000,
    whatsappProvider: 'cloud',
    whatsappCloud: {
      baseUrl: meta.url,
      apiVersion: CLOUD.version,
      token: CLOUD.token,
      phoneNumberId: CLOUD.phoneNumberId,
      template: 'coldchain_alarm',
      appSecret: APP_SECRET,
      verifyToken: 'verify-me',
    },
  });
  afterAll(() => meta.close());

  const webhook = (statuses: Record<string, unknown>[], secret = APP_SECRET, signature?: string) => {
    const signed = cloudStatusWebhook(statuses, secret);
    return ctx.app.inject({
      method: 'POST',
      url: '/hooks/whatsapp-cloud',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature ?? signed.signature },
      payload: signed.body,
    });
  };

  it('sends the approved template with the alarm text in the recipient language, then a signed webhook marks it delivered', async () => {
    const english = await raiseAlarm(ctx.app, ['whatsapp'], { phone: '+8613800138011' });
    const chinese = await raiseAlarm(ctx.app, ['whatsapp'], { phone: '+8613800138012', language: 'cn' });
    const before = meta.bodies.length;
    await ctx.app.delivery.deliverDue();

    const sent = meta.bodies.slice(before);
    expect(sent).toHaveLength(2);
    const request = meta.requests.at(-1)!;
    expect(request.path).toBe(`/${CLOUD.version}/${CLOUD.phoneNumberId}/messages`);
    expect(request.headers.authorization).toBe(`Bearer ${CLOUD.token}`);
    const toEnglish = sent.find((b) => b.to === '8613800138011')!;
    expect(toEnglish).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '8613800138011',
      type: 'template',
      template: {
        name: 'coldchain_alarm',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [{ type: 'text', text: expect.stringContaining('[ColdChain] Temperature 1 of') }],
          },
        ],
      },
    });
    const toChinese = sent.find((b) => b.to === '8613800138012')!;
    expect(toChinese.template).toMatchObject({ language: { code: 'zh_CN' } });
    expect(JSON.stringify(toChinese.template)).toContain('【ColdChain】');

    const [row] = await notificationsOf(ctx.app, english.record.id);
    expect(row).toMatchObject({ channel: 'whatsapp', status: 'sent', attempts: 1 });
    const wamid = row!.delivery!.providerId!;
    expect(wamid).toMatch(/^wamid\./);

    expect((await webhook([{ id: wamid, status: 'sent', recipient_id: '8613800138011' }])).statusCode).toBe(
      200,
    );
    expect((await notificationsOf(ctx.app, english.record.id))[0]!.status).toBe('sent');
    expect(
      (await webhook([{ id: wamid, status: 'delivered', recipient_id: '8613800138011' }])).statusCode,
    ).toBe(200);
    const list = await call<{ status: string; statusText: string }[]>(
      ctx.app,
      '/api/alarm/alarmNotifications',
      { id: String(english.record.id) },
      english.as,
    );
    expect(list.body.data[0]).toMatchObject({ status: 'delivered', statusText: 'Delivered' });
    // "read" after "delivered" changes nothing.
    await webhook([{ id: wamid, status: 'read' }]);
    expect((await notificationsOf(ctx.app, english.record.id))[0]!.status).toBe('delivered');

    // A failed status carries Meta's error; the message's credit comes back.
    const [other] = await notificationsOf(ctx.app, chinese.record.id);
    const failed = await webhook([
      {
        id: other!.delivery!.providerId,
        status: 'failed',
        errors: [{ code: 131026, title: 'Message undeliverable' }],
      },
    ]);
    expect(failed.statusCode).toBe(200);
    const [after] = await notificationsOf(ctx.app, chinese.record.id);
    expect(after).toMatchObject({ status: 'failed' });
    expect(after!.lastError).toContain('131026');
    expect(await creditBalance(ctx.app.db, chinese.company.id)).toBe(100);
  });

  it('refuses webhooks that are unsigned or signed with another secret; answers the verification', async () => {
    const a = await raiseAlarm(ctx.app, ['whatsapp'], { phone: '+8613800138013' });
    await ctx.app.delivery.deliverDue();
    const wamid = (await notificationsOf(ctx.app, a.record.id))[0]!.delivery!.providerId!;
    const statuses = [{ id: wamid, status: 'delivered' }];
    expect((await webhook(statuses, 'another-secret')).statusCode).toBe(403);
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/hooks/whatsapp-cloud',
      headers: { 'content-type': 'application/json' },
      payload: cloudStatusWebhook(statuses, APP_SECRET).body,
    });
    expect(unsigned.statusCode).toBe(403);
    // The signature is over the exact bytes: the same JSON re-spaced does not pass.
    const signed = cloudStatusWebhook(statuses, APP_SECRET);
    const respaced = await ctx.app.inject({
      method: 'POST',
      url: '/hooks/whatsapp-cloud',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signed.signature },
      payload: JSON.stringify(JSON.parse(signed.body), null, 1),
    });
    expect(respaced.statusCode).toBe(403);
    expect((await notificationsOf(ctx.app, a.record.id))[0]!.status).toBe('sent');

    const verify = await ctx.app.inject({
      method: 'GET',
      url: '/hooks/whatsapp-cloud?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444',
    });
    expect([verify.statusCode, verify.body]).toEqual([200, '1158201444']);
    const wrong = await ctx.app.inject({
      method: 'GET',
      url: '/hooks/whatsapp-cloud?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1',
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('judges the answer: a body without a message id or with a permanent error is not sent; rate limits are retried', async () => {
    let now = Date.now();
    const worker = createDeliveryWorker(ctx.app.db, ctx.config, null, ctx.app.log, () => new Date(now));
    const outcome = async (status: number, body: Record<string, unknown>) => {
      const a = await raiseAlarm(ctx.app, ['whatsapp'], { phone: '+8613800138014' });
      meta.answer(status, body);
      now += 1_000;
      await worker.deliverDue();
      return (await notificationsOf(ctx.app, a.record.id))[0]!;
    };
    const empty = await outcome(200, { messaging_product: 'whatsapp', contacts: [], messages: [] });
    expect(empty).toMatchObject({ status: 'retrying' });
    const notOnWhatsapp = await outcome(400, { error: { code: 131026, message: 'Message undeliverable' } });
    expect(notOnWhatsapp).toMatchObject({ status: 'failed', attempts: 1 });
    expect(notOnWhatsapp.lastError).toContain('131026');
    const noTemplate = await outcome(400, {
      error: { code: 132001, message: 'Template name does not exist' },
    });
    expect(noTemplate).toMatchObject({ status: 'failed' });
    const limited = await outcome(400, { error: { code: 130429, message: 'Rate limit hit' } });
    expect(limited).toMatchObject({ status: 'retrying' });
    expect(await outcome(503, { error: { code: 131016, message: 'Service unavailable' } })).toMatchObject({
      status: 'retrying',
    });
  });
});
