import type { Page, PushDeliveryView } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box';
import { call } from '../../test/build-app';
import { buildDevice } from '../../test/factories';
import { postReadings } from '../alarms/alarm-test-support';
import { notices } from '../notices/notices.table';
import { pushBindings, pushDeliveries, pushOutbox, pushUrls } from './push-docking.table';
import { usePushFixture } from './push-fixture';
import { expectedSignature } from './push-test-support';

/** The delivery queue: triggers, routing, signing, order, retries, stopping, SSRF at delivery. */
describe('push deliveries', () => {
  const { ctx, receiver, setUp, enabledAddress } = usePushFixture();

  it('checks the address again at every delivery: one that now points inside is not sent to', async () => {
    const { company, device, post } = await setUp();
    const inside = await receiver('127.0.0.1');
    // As if the name had resolved outside when saved and inside now (DNS rebinding).
    const [row] = await ctx.app.db
      .insert(pushUrls)
      .values({
        companyId: company.id,
        name: 'Rebound',
        url: inside.url,
        events: ['reading'],
        state: 2,
        secretSealed: new SecretBox(ctx.config.secretKey!).seal('s'),
      })
      .returning();
    await ctx.app.db.insert(pushBindings).values({ urlId: row!.id, deviceId: Number(device.id) });
    expect((await postReadings(ctx.app, device, [{ ts: Date.now() - 1000, v: 4 }])).statusCode).toBe(200);
    await ctx.app.push.runDue();
    expect(inside.received).toEqual([]);
    const deliveries = await post<Page<PushDeliveryView>>('/api/push/pageDeliveries', {
      id: String(row!.id),
      pageNum: 1,
      pageSize: 5,
    });
    expect(deliveries.body.data.list[0]).toMatchObject({
      event: 'reading',
      status: 'retrying',
      httpStatus: null,
    });
    expect(deliveries.body.data.list[0]!.error).toMatch(/refused/);
  });

  it('delivers readings batched and signed, and alarms raised and resolved', async () => {
    const { device, post, as } = await setUp();
    const { r, secret } = await enabledAddress(post, device.id);
    const t0 = Date.now() - 60_000;
    await postReadings(ctx.app, device, [
      { ts: t0, v: 4.5 },
      { ts: t0 + 10_000, v: 5.5 },
    ]);
    await postReadings(ctx.app, device, [{ ts: t0 + 20_000, v: 6.5 }]);
    await ctx.app.push.runDue();
    // The first reading also brought the device online: a deviceState delivery, in its place.
    const state = r.received.find((x) => x.body.event === 'deviceState');
    expect(state!.body.items[0]).toMatchObject({ deviceSerial: device.serial, state: 1, previousState: 4 });
    const batches = r.received.filter((x) => x.body.event === 'reading');
    expect(batches.length).toBeLessThanOrEqual(2);
    for (const batch of batches) {
      expect(batch.headers['x-event']).toBe('reading');
      expect(batch.headers['x-signature']).toBe(expectedSignature(secret, batch.raw));
      expect(batch.body).toMatchObject({ event: 'reading', deliveryId: batch.headers['x-delivery-id'] });
    }
    expect(batches.flatMap((b) => b.body.items)).toEqual([
      {
        deviceSerial: device.serial,
        sensorId: String(device.sensors[0]!.id),
        channel: 1,
        ts: t0,
        value: 4.5,
      },
      {
        deviceSerial: device.serial,
        sensorId: String(device.sensors[0]!.id),
        channel: 1,
        ts: t0 + 10_000,
        value: 5.5,
      },
      {
        deviceSerial: device.serial,
        sensorId: String(device.sensors[0]!.id),
        channel: 1,
        ts: t0 + 20_000,
        value: 6.5,
      },
    ]);

    const saved = await call(
      ctx.app,
      '/api/deviceAlarmRule/saveAlarmSetting',
      {
        carrier: 'sensor',
        targetId: String(device.sensors[0]!.id),
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        channels: [],
        notifierIds: [],
      },
      as,
    );
    expect(saved.body.msgCode).toBe(200);
    await postReadings(ctx.app, device, [{ ts: Date.now() - 1000, v: 12 }]);
    await ctx.app.alarms.idle();
    await ctx.app.push.runDue();
    const alarm = r.received.find((x) => x.body.event === 'alarm');
    expect(alarm, JSON.stringify(r.received.map((x) => x.body.event))).toBeDefined();
    expect(alarm!.headers['x-signature']).toBe(expectedSignature(secret, alarm!.raw));
    expect(alarm!.body.items[0]).toMatchObject({
      alarmType: 'overLimit',
      deviceSerial: device.serial,
      deviceId: device.id,
      level: 1,
      resolveState: 1,
      alarmId: expect.any(String),
    });
    const alarmId = (alarm!.body.items[0] as { alarmId: string }).alarmId;
    await ctx.app.db.execute(sql`update alarm_records set resolve_state = 3 where id = ${Number(alarmId)}`);
    await ctx.app.push.runDue();
    const resolved = r.received.find((x) => x.body.event === 'alarmResolved');
    expect(resolved!.body.items[0]).toMatchObject({ alarmId, resolveState: 3 });
  });

  it("pushes only the bound devices' readings, once, however the stored batches mix devices and companies", async () => {
    const a = await setUp();
    const b = await setUp();
    const other = await buildDevice(ctx.app.db, a.company.id, { name: 'Unbound fridge' });
    const { r } = await enabledAddress(a.post, a.device.id, ['reading']);
    const t0 = Date.now() - 30_000;
    // One ingest transaction for all three devices, as the batching writer makes under load.
    const known = await Promise.all(
      [a.device, other, b.device].map(async (d) => (await ctx.app.deviceDirectory.find(d.serial))!),
    );
    await Promise.all(
      known.map((device, i) =>
        ctx.app.ingest.ingest(device, [{ ts: t0, channels: [{ ch: 1, v: i + 1 }], mode: 'normal' }]),
      ),
    );
    // A repeat stores nothing, and queues nothing.
    await postReadings(ctx.app, a.device, [{ ts: t0, v: 1 }]);
    await ctx.app.push.runDue();
    const items = r.received.filter((x) => x.body.event === 'reading').flatMap((x) => x.body.items);
    expect(items).toEqual([expect.objectContaining({ deviceSerial: a.device.serial, ts: t0, value: 1 })]);
    expect(await ctx.app.db.select().from(pushOutbox)).toEqual([]);
  });

  it('delivers readings queued before migration 0042, whose row holds them as JSON', async () => {
    const { device, post } = await setUp();
    const { r } = await enabledAddress(post, device.id, ['reading']);
    const t0 = Date.UTC(2026, 10, 1, 8, 0, 0, 250);
    const sensorId = Number(device.sensors[0]!.id);
    await ctx.app.db.insert(pushOutbox).values({
      companyId: 0,
      deviceId: 0,
      event: 'reading',
      // Out of time order, as the old trigger wrote them: the router sorts.
      payload: { s: [sensorId, sensorId], t: [(t0 + 10_000) / 1000, t0 / 1000], v: [5.25, 4.75] },
    });
    await ctx.app.push.runDue();
    const items = r.received.filter((x) => x.body.event === 'reading').flatMap((x) => x.body.items);
    expect(items).toEqual([
      expect.objectContaining({ deviceSerial: device.serial, ts: t0, value: 4.75 }),
      expect.objectContaining({ deviceSerial: device.serial, ts: t0 + 10_000, value: 5.25 }),
    ]);
    expect(await ctx.app.db.select().from(pushOutbox)).toEqual([]);
  });

  it('retries a failed delivery with backoff and keeps the order of a device', async () => {
    const { device, post } = await setUp();
    const { r, id } = await enabledAddress(post, device.id, ['reading']);
    const t0 = Date.now() - 120_000;
    await postReadings(ctx.app, device, [{ ts: t0, v: 1 }]);
    await ctx.app.push.runDue();
    // The receiver is down for the next two attempts.
    r.failNext([500]);
    await postReadings(ctx.app, device, [{ ts: t0 + 1000, v: 2 }]);
    await ctx.app.push.runDue();
    await postReadings(ctx.app, device, [{ ts: t0 + 2000, v: 3 }]);
    await ctx.app.push.runDue();
    // The second batch waits for its retry; the third is not sent before it.
    expect(r.received.map((x) => x.body.items.map((i) => (i as { value: number }).value))).toEqual([[1]]);
    const [waiting] = await ctx.app.db
      .select()
      .from(pushDeliveries)
      .where(sql`${pushDeliveries.urlId} = ${Number(id)} and ${pushDeliveries.status} = 'retrying'`);
    expect(waiting!.attempts).toBe(1);
    expect(waiting!.nextAt.getTime()).toBeGreaterThan(Date.now());
    expect(waiting!.error).toMatch(/HTTP 500/);
    await ctx.app.db.execute(sql`update push_deliveries set next_at = now() where id = ${waiting!.id}`);
    await ctx.app.push.runDue();
    expect(r.received.map((x) => x.body.items.map((i) => (i as { value: number }).value))).toEqual([
      [1],
      [2],
      [3],
    ]);
    const ids = r.received.map((x) => Number(x.body.deliveryId));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const list = await post<Page<PushDeliveryView>>('/api/push/pageDeliveries', {
      id,
      pageNum: 1,
      pageSize: 10,
    });
    expect(list.body.data.list.find((d) => d.attempts === 2)).toMatchObject({
      status: 'delivered',
      httpStatus: 200,
    });
    expect(ctx.app.push.backoffFor(1)).toBe(1_000);
    expect(ctx.app.push.backoffFor(30)).toBe(3_600_000);
  });

  it('stops an address: its queue and devices are cleared and nothing more is queued', async () => {
    const { device, post } = await setUp();
    const { r, id } = await enabledAddress(post, device.id, ['reading']);
    r.failNext([500]);
    await postReadings(ctx.app, device, [{ ts: Date.now() - 5000, v: 3 }]);
    await ctx.app.push.runDue();
    expect((await post('/api/push/stopUrl', { id })).body.msgCode).toBe(200);
    const left = await ctx.app.db
      .select()
      .from(pushDeliveries)
      .where(sql`${pushDeliveries.urlId} = ${Number(id)} and ${pushDeliveries.status} <> 'delivered'`);
    expect(left.filter((d) => d.event !== 'test')).toEqual([]);
    expect(
      await ctx.app.db
        .select()
        .from(pushBindings)
        .where(eq(pushBindings.urlId, Number(id))),
    ).toEqual([]);
    await postReadings(ctx.app, device, [{ ts: Date.now() - 2000, v: 4 }]);
    expect(
      await ctx.app.db
        .select()
        .from(pushOutbox)
        .where(eq(pushOutbox.deviceId, Number(device.id))),
    ).toEqual([]);
    await ctx.app.push.runDue();
    expect(r.received).toEqual([]);
    expect((await post('/api/push/setDevices', { id, deviceIds: [device.id] })).body.msgContent).toBe(
      'The push address is stopped; save it again to restart it',
    );
  });

  it('stops an address that failed for a day and tells its owner', async () => {
    const { device, post, company } = await setUp();
    const { r, id } = await enabledAddress(post, device.id, ['reading']);
    r.failNext([500, 500]);
    await postReadings(ctx.app, device, [{ ts: Date.now() - 5000, v: 3 }]);
    await ctx.app.push.runDue();
    await ctx.app.db.execute(
      sql`update push_urls set failing_since = now() - interval '25 hours' where id = ${Number(id)}`,
    );
    await ctx.app.db.execute(sql`update push_deliveries set next_at = now() where url_id = ${Number(id)}`);
    await ctx.app.push.runDue();
    const [row] = await ctx.app.db
      .select()
      .from(pushUrls)
      .where(eq(pushUrls.id, Number(id)));
    expect(row!.state).toBe(3);
    const told = await ctx.app.db.select().from(notices).where(eq(notices.userId, company.admin.id));
    expect(told.map((n) => n.kind)).toContain('pushStopped');
  });
});
