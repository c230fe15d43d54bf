import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildUser, login } from '../../test/factories';
import { sessions } from '../users/users.table';

describe('password login and sessions', () => {
  const ctx = useTestApp();

  it('logs in with account and password and returns an opaque token that works on later calls', async () => {
    const user = await buildUser(ctx.app.db, { account: 'Login.Case@Example.com' });
    const { status, body } = await call<{ accessToken: string; expireTime: number }>(
      ctx.app,
      '/api/doLogin',
      {
        account: 'login.case@example.com',
        password: user.password,
        type: 1,
        platform: 1,
      },
    );
    expect(status).toBe(200);
    expect(body.msgCode).toBe(200);
    expect(body.data.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.expireTime).toBeGreaterThan(Date.now());
    const info = await call<{ id: string }>(
      ctx.app,
      '/api/user/userInfo',
      {},
      { token: body.data.accessToken },
    );
    expect(info.body.msgCode).toBe(200);
    expect(info.body.data.id).toBe(String(user.id));
  });

  it('still signs in an account registered under the looser e-mail rule of before', async () => {
    // `a..b@x.io` and a numeric top-level domain fail today's EMAIL_PATTERN (registration refuses
    // them) but were accepted before; tightening the rule must not lock such a user out.
    for (const account of ['Old..Style@Example.com', 'old@host.example.123']) {
      const user = await buildUser(ctx.app.db, { account });
      const { body } = await call<{ accessToken: string }>(ctx.app, '/api/doLogin', {
        account: ` ${account.toUpperCase()} `,
        password: user.password,
        type: 1,
        platform: 1,
      });
      expect(body.msgCode, account).toBe(200);
    }
    const registering = await call(ctx.app, '/api/register/getPhoneCode', {
      account: 'old..style@example.com',
    });
    expect(registering.body.msgCode).toBe(500);
  });

  it('stores only a hash of the token', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const rows = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same message for an unknown account and a wrong password, in the requested language', async () => {
    const user = await buildUser(ctx.app.db);
    const wrong = await call(ctx.app, '/api/doLogin', {
      account: user.account,
      password: 'Wrong1234',
      type: 1,
    });
    const unknown = await call(ctx.app, '/api/doLogin', {
      account: 'nobody@example.com',
      password: 'Wrong1234',
      type: 1,
    });
    expect(wrong.body).toEqual({ msgCode: 500, msgContent: 'Account or password is incorrect', data: null });
    expect(unknown.body).toEqual(wrong.body);
    const cn = await call(
      ctx.app,
      '/api/doLogin',
      { account: user.account, password: 'x' },
      { language: 'cn' },
    );
    expect(cn.body.msgContent).toBe('账号或密码错误');
  });

  it.each([
    [{ password: 'Passw0rd1', type: 1 }, 'en', 'Account is required'],
    [
      { account: 'not-an-account', password: 'Passw0rd1' },
      'en',
      'Account: enter a correct mobile number or e-mail address',
    ],
    [{ account: 'not-an-account', password: 'Passw0rd1' }, 'cn', '账号：请输入正确的手机号或邮箱'],
    [{ account: 'a@example.com' }, 'cn', '密码不能为空'],
    [{ account: 'a@example.com', password: '' }, 'en', 'Password is required'],
    [{ account: 'a@example.com', password: 'x', type: 9 }, 'en', 'Login type is invalid'],
  ] as const)('rejects %j with a message naming the field (%s)', async (body, language, message) => {
    const { status, body: envelope } = await call(ctx.app, '/api/doLogin', body, { language });
    expect(status).toBe(200);
    expect(envelope).toEqual({ msgCode: 500, msgContent: message, data: null });
  });

  it('answers msgCode 311 for a missing, unknown or expired token', async () => {
    const missing = await call(ctx.app, '/api/user/userInfo');
    expect(missing.body.msgCode).toBe(311);
    const unknown = await call(ctx.app, '/api/user/userInfo', {}, { token: 'not-a-real-token' });
    expect(unknown.body).toEqual({
      msgCode: 311,
      msgContent: 'Login expired, please log in again',
      data: null,
    });

    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    await ctx.app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    const expired = await call(ctx.app, '/api/user/userInfo', {}, { token, language: 'cn' });
    expect(expired.body).toEqual({ msgCode: 311, msgContent: '登录已过期，请重新登录', data: null });
  });

  it('slides the expiry forward when a session is used', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const stale = new Date(Date.now() - 5 * 60_000);
    await ctx.app.db
      .update(sessions)
      .set({ lastSeenAt: stale, expiresAt: new Date(Date.now() + 1000) })
      .where(eq(sessions.userId, user.id));
    await call(ctx.app, '/api/user/userInfo', {}, { token });
    const [row] = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + ctx.config.sessionIdleMs - 60_000);
  });

  it('logout ends the session: the token answers 311 afterwards', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const out = await call(ctx.app, '/api/logout', {}, { token });
    expect(out.body.msgCode).toBe(200);
    const after = await call(ctx.app, '/api/user/userInfo', {}, { token });
    expect(after.body.msgCode).toBe(311);
  });

  it('refuses a disabled account', async () => {
    const user = await buildUser(ctx.app.db);
    const { users } = await import('../users/users.table');
    await ctx.app.db.update(users).set({ disabled: true }).where(eq(users.id, user.id));
    const { body } = await call(ctx.app, '/api/doLogin', { account: user.account, password: user.password });
    expect(body.msgContent).toBe('This account has been disabled');
  });
});

describe('login rate limit', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 3 });

  it('answers HTTP 429 with a message in the requested language after the limit', async () => {
    for (let i = 0; i < 3; i++) {
      const { status } = await call(ctx.app, '/api/doLogin', {
        account: 'a@example.com',
        password: 'Wrong1234',
      });
      expect(status).toBe(200);
    }
    const limited = await call(
      ctx.app,
      '/api/doLogin',
      { account: 'a@example.com', password: 'Wrong1234' },
      { language: 'cn' },
    );
    expect(limited.status).toBe(429);
    expect(limited.body.msgCode).toBe(429);
    expect(limited.body.msgContent).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
  });
});
