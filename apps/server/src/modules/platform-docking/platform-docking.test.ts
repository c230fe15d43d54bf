import { createHmac } from 'node:crypto';
import type {
  CompanyDockingView,
  CompanyPlatformView,
  Page,
  PushDeliveryView,
  PushUrlView,
} from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call } from '../../test/build-app';
import { buildCompany, buildDevice, buildUser, login } from '../../test/factories';
import { postReadings } from '../alarms/alarm-test-support';
import { pushBindings, pushDeliveries, pushUrls } from '../push-docking/push-docking.table';
import { usePushFixture } from '../push-docking/push-fixture';
import { platformDockings } from './platform-docking.table';

const DOCK_SERVICES = ['service:platformDock'];
const SECRET = 'platform-signing-secret';

/** Platform docking: the supplier's platforms, a company's application, delivery, stopping. */
describe('platform docking', () => {
  const { ctx, receiver } = usePushFixture();

  async function operator() {
    const user = await buildUser(ctx.app.db, {});
    await ctx.app.db.execute(sql`update users set is_operator = true where id = ${user.id}`);
    const token = await login(ctx.app, user.account);
    return <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
  }

  async function company(services = DOCK_SERVICES) {
    const built = await buildCompany(ctx.app.db, { services });
    const as = { token: await login(ctx.app, built.admin.account), companyId: built.id };
    const device = await buildDevice(ctx.app.db, built.id, { name: 'Vaccine fridge' });
    const post = <T>(url: string, body: unknown, language?: 'en' | 'cn') =>
      call<T>(ctx.app, url, body, { ...as, language });
    return { built, device, post };
  }

  async function offeredPlatform() {
    const r = await receiver();
    const op = await operator();
    const saved = await op<{ id: string }>('/api/operator/platform/savePlatform', {
      name: 'Provincial vaccine platform',
      protocol: 'generic-json',
      endpoint: r.url,
      keyId: 'coldchain-supplier',
      secret: SECRET,
    });
    expect(saved.body.msgCode).toBe(200);
    return { r, op, platformId: saved.body.data.id };
  }

  it('sends nothing while pending, then readings signed by the generic adapter once enabled', async () => {
    const { r, op, platformId } = await offeredPlatform();
    const { device, post } = await company([...DOCK_SERVICES, 'service:pushDock']);
    const listed = await post<CompanyPlatformView[]>('/api/platformDock/pagePlatforms', {});
    expect(listed.body.data.find((p) => p.id === platformId)).toMatchObject({ docking: null });
    const applied = await post<{ id: string }>('/api/platformDock/apply', {
      platformId,
      deviceIds: [device.id],
    });
    expect(applied.body.msgCode).toBe(200);
    const id = applied.body.data.id;

    const t0 = Date.now() - 60_000;
    await postReadings(ctx.app, device, [{ ts: t0, v: 4.5 }]);
    await ctx.app.push.runDue();
    expect(r.received).toEqual([]);
    const pending = await post<CompanyDockingView>('/api/platformDock/dockingDetail', { id });
    expect(pending.body.data).toMatchObject({
      state: 1,
      deviceIds: [device.id],
      platformName: 'Provincial vaccine platform',
    });

    const decided = await op('/api/operator/platform/decideRequest', { id, enable: true });
    expect(decided.body.msgCode).toBe(200);
    await postReadings(ctx.app, device, [{ ts: t0 + 10_000, v: 5.5 }]);
    await ctx.app.push.runDue();
    const readings = r.received.filter((x) => x.body.event === 'reading');
    expect(readings.flatMap((x) => x.body.items)).toContainEqual(
      expect.objectContaining({ deviceSerial: device.serial, ts: t0 + 10_000, value: 5.5 }),
    );
    for (const x of readings) {
      const ts = String(x.headers['x-timestamp']);
      expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
      expect(x.headers['x-platform-key']).toBe('coldchain-supplier');
      expect(x.headers['x-signature']).toBe(
        `sha256=${createHmac('sha256', SECRET).update(`${ts}.${x.raw}`).digest('hex')}`,
      );
    }
    const deliveries = await post<Page<PushDeliveryView>>('/api/platformDock/pageDeliveries', {
      id,
      pageNum: 1,
      pageSize: 10,
    });
    expect(deliveries.body.data.list.some((d) => d.status === 'delivered' && d.event === 'reading')).toBe(
      true,
    );
    // The docking's queue address is the platform's, not one of the company's push addresses.
    const own = await post<Page<PushUrlView>>('/api/push/pageUrls', { pageNum: 1, pageSize: 20 });
    expect(own.body.data).toMatchObject({ list: [], total: 0 });
  });

  it('stops and clears the docking data: the queue address, its undelivered deliveries and monitors', async () => {
    const { r, op, platformId } = await offeredPlatform();
    const { device, post } = await company();
    const { body } = await post<{ id: string }>('/api/platformDock/apply', {
      platformId,
      deviceIds: [device.id],
    });
    await op('/api/operator/platform/decideRequest', { id: body.data.id, enable: true });
    const [docking] = await ctx.app.db
      .select()
      .from(platformDockings)
      .where(eq(platformDockings.id, Number(body.data.id)));
    const urlId = docking!.pushUrlId!;
    r.failNext([500, 500, 500]);
    await postReadings(ctx.app, device, [{ ts: Date.now() - 5_000, v: 3 }]);
    await ctx.app.push.runDue();
    expect(
      (await ctx.app.db.select().from(pushDeliveries).where(eq(pushDeliveries.urlId, urlId))).length,
    ).toBeGreaterThan(0);

    expect((await post('/api/platformDock/stop', { id: body.data.id })).body.msgCode).toBe(200);
    expect(await ctx.app.db.select().from(pushUrls).where(eq(pushUrls.id, urlId))).toEqual([]);
    expect(await ctx.app.db.select().from(pushDeliveries).where(eq(pushDeliveries.urlId, urlId))).toEqual([]);
    expect(await ctx.app.db.select().from(pushBindings).where(eq(pushBindings.urlId, urlId))).toEqual([]);
    const stopped = await post<CompanyDockingView>('/api/platformDock/dockingDetail', { id: body.data.id });
    expect(stopped.body.data).toMatchObject({ state: 3, deviceIds: [], queued: 0 });
    expect(
      (await post('/api/platformDock/setDevices', { id: body.data.id, deviceIds: [device.id] })).body.msgCode,
    ).toBe(500);
    // A new application is possible once the old one is stopped.
    expect((await post('/api/platformDock/apply', { platformId, deviceIds: [device.id] })).body.msgCode).toBe(
      200,
    );
  });

  it('refuses a second live application, a refused one reads stopped with its reason, and decisions are the supplier’s', async () => {
    const { op, platformId } = await offeredPlatform();
    const { device, post } = await company();
    const first = await post<{ id: string }>('/api/platformDock/apply', {
      platformId,
      deviceIds: [device.id],
    });
    const again = await post('/api/platformDock/apply', { platformId, deviceIds: [device.id] }, 'cn');
    expect(again.body).toMatchObject({
      msgCode: 500,
      msgContent: '本企业已对接该平台，请修改其监测设备或先停止对接',
    });
    // A company administrator is no operator.
    const own = await post('/api/operator/platform/decideRequest', { id: first.body.data.id, enable: true });
    expect(own.body.msgCode).not.toBe(200);
    expect(
      (
        await op('/api/operator/platform/decideRequest', {
          id: first.body.data.id,
          enable: false,
          reason: 'Not registered with the province',
        })
      ).body.msgCode,
    ).toBe(200);
    const detail = await post<CompanyDockingView>('/api/platformDock/dockingDetail', {
      id: first.body.data.id,
    });
    expect(detail.body.data).toMatchObject({ state: 3, reason: 'Not registered with the province' });
    expect(
      (await op('/api/operator/platform/decideRequest', { id: first.body.data.id, enable: true })).body
        .msgCode,
    ).toBe(500);
  });

  it('keeps companies apart and checks monitors, service and fields', async () => {
    const { op, platformId } = await offeredPlatform();
    const a = await company();
    const b = await company();
    const foreign = await a.post('/api/platformDock/apply', { platformId, deviceIds: [b.device.id] });
    expect(foreign.body.msgCode).not.toBe(200);
    const mine = await a.post<{ id: string }>('/api/platformDock/apply', {
      platformId,
      deviceIds: [a.device.id],
    });
    expect((await b.post('/api/platformDock/dockingDetail', { id: mine.body.data.id })).body.msgCode).toBe(
      500,
    );
    expect((await b.post('/api/platformDock/stop', { id: mine.body.data.id })).body.msgCode).toBe(500);
    expect(
      (await b.post('/api/platformDock/pageDeliveries', { id: mine.body.data.id, pageNum: 1, pageSize: 5 }))
        .body.msgCode,
    ).toBe(500);
    const off = await company([]);
    const refused = await off.post('/api/platformDock/pagePlatforms', {}, 'cn');
    expect(refused.body.msgContent).toBe('暂无该服务或操作的权限');
    const empty = await a.post('/api/platformDock/apply', { platformId, deviceIds: [] });
    expect(empty.body).toMatchObject({ msgCode: 500 });
    expect(empty.body.msgContent).toMatch(/Monitors/);
    // The platform's secret is never answered, and an internal endpoint is refused.
    const platforms = await op<Page<Record<string, unknown>>>('/api/operator/platform/pagePlatforms', {
      pageNum: 1,
      pageSize: 50,
    });
    expect(JSON.stringify(platforms.body.data)).not.toContain(SECRET);
    const inside = await op('/api/operator/platform/savePlatform', {
      name: 'Metadata',
      protocol: 'generic-json',
      endpoint: 'http://169.254.169.254/latest',
      keyId: 'x',
      secret: 'long-enough-secret',
    });
    expect(inside.body.msgContent).toBe('The push address is not reachable from the platform');
  });
});
