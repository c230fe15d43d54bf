import type { Page, PushDeliveryView, PushTestResult, PushUrlView, SavedPushUrl } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pushUrls } from './push-docking.table';
import { usePushFixture } from './push-fixture';
import { expectedSignature } from './push-test-support';

const UNREACHABLE = 'The push address is not reachable from the platform';

/** The console's calls: saving, the secret, the test delivery, SSRF at saving, service and companies. */
describe('push docking calls', () => {
  const { ctx, receiver, setUp, enabledAddress } = usePushFixture();

  it('creates an address whose secret is shown once, kept sealed, and enabled by a signed test delivery', async () => {
    const { post } = await setUp();
    const r = await receiver();
    const saved = await post<SavedPushUrl>('/api/push/saveUrl', {
      name: 'BMS',
      url: r.url,
      events: ['reading'],
    });
    const { id, secret } = saved.body.data;
    expect(secret!.length).toBeGreaterThanOrEqual(32);
    const [row] = await ctx.app.db
      .select()
      .from(pushUrls)
      .where(eq(pushUrls.id, Number(id)));
    expect(row!.secretSealed).not.toContain(secret);
    expect(row!.state).toBe(1);

    r.failNext([503]);
    const failed = await post<PushTestResult>('/api/push/testUrl', { id });
    expect(failed.body.data).toMatchObject({ ok: false, httpStatus: 503, state: 1 });
    const tested = await post<PushTestResult>('/api/push/testUrl', { id });
    expect(tested.body.data).toMatchObject({ ok: true, httpStatus: 200, state: 2 });
    const test = r.received[0]!;
    expect(test.headers['x-event']).toBe('test');
    expect(test.headers['x-delivery-id']).toBe(test.body.deliveryId);
    expect(test.headers['x-signature']).toBe(expectedSignature(secret!, test.raw));
    expect(test.headers['x-signature']).not.toBe(expectedSignature('wrong', test.raw));

    const page = await post<Page<PushUrlView>>('/api/push/pageUrls', { pageNum: 1, pageSize: 20 });
    expect(page.body.data.list).toEqual([expect.objectContaining({ id, name: 'BMS', url: r.url, state: 2 })]);
    expect(JSON.stringify(page.body)).not.toContain(secret!);
    const deliveries = await post<Page<PushDeliveryView>>('/api/push/pageDeliveries', {
      id,
      pageNum: 1,
      pageSize: 20,
    });
    expect(deliveries.body.data.list.map((d) => [d.event, d.status, d.httpStatus])).toEqual([
      ['test', 'delivered', 200],
      ['test', 'failed', 503],
    ]);
    // Editing the URL asks for a new test; the secret is not answered again.
    const r2 = await receiver();
    const edited = await post<SavedPushUrl>('/api/push/saveUrl', {
      id,
      name: 'BMS 2',
      url: r2.url,
      events: ['alarm'],
    });
    expect(edited.body.data).toEqual({ id });
    const [after] = await ctx.app.db
      .select()
      .from(pushUrls)
      .where(eq(pushUrls.id, Number(id)));
    expect(after!.state).toBe(1);
  });

  it('refuses loopback, link-local, private and IPv6 loopback addresses and names, in both languages', async () => {
    const { post } = await setUp();
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/hook',
      'http://[::1]:9/hook',
      'http://localhost:9/hook',
    ]) {
      const answer = await post('/api/push/saveUrl', { name: 'Inside', url, events: ['reading'] });
      expect(answer.body.msgContent, url).toBe(UNREACHABLE);
    }
    expect(
      (await post('/api/push/saveUrl', { name: 'Inside', url: 'http://127.0.0.1/', events: ['alarm'] }, 'cn'))
        .body.msgContent,
    ).toBe('平台无法访问该推送地址');
    expect(
      (await post('/api/push/saveUrl', { name: 'Bad', url: 'ftp://x', events: ['alarm'] })).body.msgContent,
    ).toBe('Push address must be an http:// or https:// address of at most 2000 characters');
    expect(
      (await post('/api/push/saveUrl', { name: 'No events', url: 'http://example.com', events: [] })).body
        .msgContent,
    ).toBe('Events: choose at least one of readings, alarms, alarm resolved, device state');
  });

  it('needs the push service, and keeps each company to its own addresses and devices', async () => {
    const off = await setUp([]);
    // Every service that is off answers the spec's words (modules/companies/service-gate.ts).
    expect((await off.post('/api/push/pageUrls', {})).body.msgContent).toBe(
      'No permission for this service or operation',
    );
    const a = await setUp();
    const b = await setUp();
    const { id } = await enabledAddress(a.post, a.device.id, ['reading']);
    for (const [url, body] of [
      ['/api/push/testUrl', { id }],
      ['/api/push/stopUrl', { id }],
      ['/api/push/setDevices', { id, deviceIds: [] }],
      ['/api/push/pageDeliveries', { id, pageNum: 1, pageSize: 5 }],
      ['/api/push/saveUrl', { id, name: 'Taken', url: (await receiver()).url, events: ['reading'] }],
    ] as const) {
      expect((await b.post(url, body)).body.msgContent, url).toBe('The push address does not exist');
    }
    expect((await b.post<Page<PushUrlView>>('/api/push/pageUrls', {})).body.data.total).toBe(0);
    const own = await b.post<SavedPushUrl>('/api/push/saveUrl', {
      name: 'Mine',
      url: (await receiver()).url,
      events: ['reading'],
    });
    expect(
      (await b.post('/api/push/setDevices', { id: own.body.data.id, deviceIds: [a.device.id] })).body.msgCode,
    ).not.toBe(200);
  });
});
