import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildUser, login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';

const sink = await startSmtpSink();
const codeOf = (text: string) => /(\d{6})/.exec(text)![1]!;
afterAll(() => sink.close());

describe('verification-code login', () => {
  const ctx = useTestApp({ smtpUrl: sink.url, codeRateLimitPerMinute: 1000 });

  it('logs in with a code sent by e-mail, once', async () => {
    const user = await buildUser(ctx.app.db);
    const mail = sink.nextMail();
    const sent = await call(ctx.app, '/api/sendCode', { account: user.account });
    expect(sent.body).toMatchObject({ msgCode: 200, data: { channel: 'email' } });
    const code = codeOf((await mail).text);
    const ok = await call<{ accessToken: string }>(ctx.app, '/api/doLogin', {
      account: user.account,
      code,
      type: 2,
    });
    expect(ok.body.msgCode).toBe(200);
    const info = await call<{ id: string }>(
      ctx.app,
      '/api/user/userInfo',
      {},
      { token: ok.body.data.accessToken },
    );
    expect(info.body.data.id).toBe(String(user.id));
    const reused = await call(
      ctx.app,
      '/api/doLogin',
      { account: user.account, code, type: 2 },
      { language: 'cn' },
    );
    expect(reused.body.msgContent).toBe('验证码无效或已过期，请重新获取');
    const log = await call<{ list: { method: string; status: number }[] }>(
      ctx.app,
      '/api/userLoginLog/pageUserLog',
      {},
      { token: ok.body.data.accessToken },
    );
    expect(log.body.data.list.map((e) => [e.method, e.status])).toEqual([
      ['code', 0],
      ['code', 1],
    ]);
  });

  it('names what is missing for each login type', async () => {
    const noCode = await call(ctx.app, '/api/doLogin', { account: 'a@example.com', type: 2 });
    expect(noCode.body.msgContent).toBe('Verification code is required');
    const noPassword = await call(
      ctx.app,
      '/api/doLogin',
      { account: 'a@example.com', type: 1 },
      { language: 'cn' },
    );
    expect(noPassword.body.msgContent).toBe('密码不能为空');
    const unknown = await call(ctx.app, '/api/sendCode', { account: 'nobody@example.com' });
    expect(unknown.body.msgContent).toBe('This account is not registered');
  });
});

describe('password recovery', () => {
  const ctx = useTestApp({ smtpUrl: sink.url, codeRateLimitPerMinute: 1000 });

  it('verifies the account, exchanges the code for a ticket, sets the new password and ends old sessions', async () => {
    const user = await buildUser(ctx.app.db);
    const oldSession = await login(ctx.app, user.account);
    expect((await call(ctx.app, '/api/verifyAccount', { account: user.account })).body.data).toEqual({
      exists: true,
    });
    const mail = sink.nextMail();
    await call(ctx.app, '/api/getAccountCode', { account: user.account });
    const code = codeOf((await mail).text);
    const checked = await call<{ ticket: string }>(ctx.app, '/api/checkCode', {
      account: user.account,
      code,
    });
    const ticket = checked.body.data.ticket;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const mismatch = await call(
      ctx.app,
      '/api/resetPassword',
      { account: user.account, ticket, password: 'NewPass2026', confirmPassword: 'NewPass2027' },
      { language: 'en' },
    );
    expect(mismatch.body.msgContent).toBe('Both Password Enter Not Match');
    const done = await call(
      ctx.app,
      '/api/resetPassword',
      { account: user.account, ticket, password: 'NewPass2026', confirmPassword: 'NewPass2026' },
      { language: 'cn' },
    );
    expect(done.body).toEqual({ msgCode: 200, msgContent: '密码已修改，请使用新密码登录', data: null });

    expect((await call(ctx.app, '/api/user/userInfo', {}, { token: oldSession })).body.msgCode).toBe(311);
    expect(
      (await call(ctx.app, '/api/doLogin', { account: user.account, password: user.password })).body
        .msgContent,
    ).toBe('Account or password is incorrect');
    await login(ctx.app, user.account, 'NewPass2026');
    // The ticket is single-use.
    const again = await call(ctx.app, '/api/resetPassword', {
      account: user.account,
      ticket,
      password: 'Another2026',
      confirmPassword: 'Another2026',
    });
    expect(again.body.msgContent).toBe('Verification code invalid or expired; request a new one');
  });

  it('refuses an unknown account at the first step and a ticket for another account', async () => {
    const unknown = await call(
      ctx.app,
      '/api/verifyAccount',
      { account: 'ghost@example.com' },
      { language: 'cn' },
    );
    expect(unknown.body.msgContent).toBe('该账号未注册');
    const a = await buildUser(ctx.app.db);
    const b = await buildUser(ctx.app.db);
    const mail = sink.nextMail();
    await call(ctx.app, '/api/getAccountCode', { account: a.account });
    const { ticket } = (
      await call<{ ticket: string }>(ctx.app, '/api/checkCode', {
        account: a.account,
        code: codeOf((await mail).text),
      })
    ).body.data;
    const stolen = await call(ctx.app, '/api/resetPassword', {
      account: b.account,
      ticket,
      password: 'Hijack2026',
      confirmPassword: 'Hijack2026',
    });
    expect(stolen.body.msgContent).toBe('Verification code invalid or expired; request a new one');
  });
});
