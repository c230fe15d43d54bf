import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { markWechatNotFollowing } from '../profile/wechat-follow';
import { users } from '../users/users.table';
import { createDeliveryWorker } from './delivery';
import { notificationsOf, raiseAlarm, startFakeWechat } from './delivery-test-support';

const wechat = await startFakeWechat('wx-app', 'wx-secret');

/**
 * WeChat errors sorted into those a retry cannot fix and those it may: 43004 "require subscribe"
 * gives the message up at once and records that the user no longer follows the official account,
 * which the personal centre then shows; "system busy" is retried.
 */
describe('WeChat delivery errors', () => {
  const ctx = useTestApp({
    loginRateLimitPerMinute: 10_000,
    wechat: { baseUrl: wechat.url, appId: 'wx-app', appSecret: 'wx-secret', templateId: 'TPL-1' },
  });
  afterAll(() => wechat.close());

  it('43004 "require subscribe": failed at once, not retried, the user marked not following', async () => {
    const a = await raiseAlarm(ctx.app, ['wechat'], { wechatOpenId: 'oWX-LEFT-THE-ACCOUNT' });
    wechat.refusals.set('oWX-LEFT-THE-ACCOUNT', { errcode: 43004, errmsg: 'require subscribe' });
    let now = Date.now();
    const worker = createDeliveryWorker(ctx.app.db, ctx.config, null, ctx.app.log, () => new Date(now));
    await worker.deliverDue();
    const [row] = await notificationsOf(ctx.app, a.record.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toContain('43004');

    // However late, it is not tried again.
    now += 24 * 3_600_000;
    await worker.deliverDue();
    expect(wechat.sends.filter((s) => s.body.touser === 'oWX-LEFT-THE-ACCOUNT')).toHaveLength(1);

    // The binding stays, the follow state is gone: the personal centre says "not following".
    const [user] = await ctx.app.db.select().from(users).where(eq(users.id, a.company.admin.id));
    expect(user).toMatchObject({ wechatOpenId: 'oWX-LEFT-THE-ACCOUNT', wechatFollowed: false });
    const info = await call<{ wechatBound: boolean; wechatFollowed: boolean }>(
      ctx.app,
      '/api/user/personalInfo',
      {},
      a.as,
    );
    expect(info.body.data).toMatchObject({ wechatBound: true, wechatFollowed: false });

    // And a notice tells them, in their language, what happened and what to do.
    const notices = await call<{ list: { kind: string; title: string; content: string; state: number }[] }>(
      ctx.app,
      '/api/user/userNoticeList',
      {},
      { ...a.as, language: 'cn' },
    );
    const wechatNotices = notices.body.data.list.filter((n) => n.kind === 'wechat');
    expect(wechatNotices).toEqual([
      expect.objectContaining({
        title: '微信报警消息已停止',
        state: 1,
        content: expect.stringContaining('刷新关注状态'),
      }),
    ]);
    // Told once per change: a second refusal while already "not following" adds no notice.
    expect(await markWechatNotFollowing(ctx.app.db, a.company.admin.id, a.company.id)).toBe(false);
    const again = await call<{ total: number }>(ctx.app, '/api/user/userNoticeList', {}, a.as);
    expect(again.body.data.total).toBe(notices.body.data.list.length);
  });

  it('"system busy" (-1) is retried and then delivered', async () => {
    const a = await raiseAlarm(ctx.app, ['wechat'], { wechatOpenId: 'oWX-BUSY-DAY' });
    wechat.refusals.set('oWX-BUSY-DAY', { errcode: -1, errmsg: 'system error' });
    let now = Date.now();
    const worker = createDeliveryWorker(ctx.app.db, ctx.config, null, ctx.app.log, () => new Date(now));
    await worker.deliverDue();
    expect((await notificationsOf(ctx.app, a.record.id))[0]).toMatchObject({ status: 'retrying' });
    wechat.refusals.delete('oWX-BUSY-DAY');
    now += 3_600_000;
    await worker.deliverDue();
    expect((await notificationsOf(ctx.app, a.record.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    const [user] = await ctx.app.db.select().from(users).where(eq(users.id, a.company.admin.id));
    expect(user!.wechatFollowed).toBe(true);
  });
});
