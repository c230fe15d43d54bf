import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildUser } from '../../test/factories';
import { loginLog } from '../audit/audit.table';
import { backoffSeconds } from './login-throttle';

describe('login backoff and lockout', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const attempt = (account: string, password: string, language: 'en' | 'cn' = 'en') =>
    call<{ accessToken?: string }>(ctx.app, '/api/doLogin', { account, password, type: 1 }, { language });
  /** Moves the account's logged attempts `ms` into the past, as if time had passed. */
  const age = (account: string, ms: number) =>
    ctx.app.db
      .update(loginLog)
      .set({ createdAt: sql`${loginLog.createdAt} - make_interval(secs => ${ms / 1000})` })
      .where(eq(loginLog.account, account));

  it('doubles the wait from the sixth attempt: 1 s, 2 s, 4 s ... capped at 60 s', () => {
    expect([4, 5, 6, 7, 10, 11, 12, 99].map(backoffSeconds)).toEqual([0, 1, 2, 4, 32, 60, 60, 60]);
  });

  it('after 5 failures asks to wait before even a right password is considered, in both languages', async () => {
    const user = await buildUser(ctx.app.db);
    for (let i = 0; i < 5; i++) {
      expect((await attempt(user.account, 'Wrong1234')).body.msgContent).toBe(
        'Account or password is incorrect',
      );
    }
    const blocked = await attempt(user.account, user.password);
    expect(blocked.body).toEqual({
      msgCode: 500,
      msgContent: 'Too many failed logins; please wait 1 seconds before trying again',
      data: null,
    });
    expect((await attempt(user.account, user.password, 'cn')).body.msgContent).toBe(
      '登录失败次数过多，请等待 1 秒后再试',
    );
    // The refused attempts are logged as throttled and do not make the wait longer.
    const throttled = await ctx.app.db
      .select()
      .from(loginLog)
      .where(and(eq(loginLog.account, user.account), eq(loginLog.reason, 'throttled')));
    expect(throttled).toHaveLength(2);

    await age(user.account, 1_500);
    expect((await attempt(user.account, 'Wrong1234')).body.msgContent).toBe(
      'Account or password is incorrect',
    );
    expect((await attempt(user.account, 'Wrong1234')).body.msgContent).toBe(
      'Too many failed logins; please wait 2 seconds before trying again',
    );
  });

  it('treats an unknown account exactly like a known one', async () => {
    const known = await buildUser(ctx.app.db);
    const unknown = 'nobody-here@example.com';
    const answers = async (account: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) seen.push((await attempt(account, 'Wrong1234')).body.msgContent);
      return seen;
    };
    expect(await answers(unknown)).toEqual(await answers(known.account));
  });

  it('locks the account for the rest of the hour at 100 failures', async () => {
    const user = await buildUser(ctx.app.db);
    const rows = Array.from({ length: 100 }, (_, i) => ({
      account: user.account,
      userId: user.id,
      platform: 1,
      method: 'password',
      status: 0,
      reason: 'wrong password',
      createdAt: new Date(Date.now() - 20 * 60_000 + i * 1000),
    }));
    await ctx.app.db.insert(loginLog).values(rows);
    const locked = await attempt(user.account, user.password);
    expect(locked.body.msgContent).toBe(
      'Too many failed logins; this account is locked, try again in 40 minutes',
    );
    expect((await attempt(user.account, user.password, 'cn')).body.msgContent).toBe(
      '登录失败次数过多，账号已锁定，请 40 分钟后再试',
    );
    // Failures older than an hour no longer count.
    await age(user.account, 3_600_000);
    const after = await attempt(user.account, user.password);
    expect(after.body.msgCode).toBe(200);
    expect(after.body.data.accessToken).toBeTruthy();
  });

  it('a successful login starts the count again', async () => {
    const user = await buildUser(ctx.app.db);
    expect((await attempt(user.account, user.password)).body.msgCode).toBe(200);
    for (let i = 0; i < 2; i++) await attempt(user.account, 'Wrong1234');
    expect((await attempt(user.account, user.password)).body.data.accessToken).toBeTruthy();
    for (let i = 0; i < 4; i++) await attempt(user.account, 'Wrong1234');
    // Four failures since the last success: no wait yet.
    expect((await attempt(user.account, 'Wrong1234')).body.msgContent).toBe(
      'Account or password is incorrect',
    );
  });
});
