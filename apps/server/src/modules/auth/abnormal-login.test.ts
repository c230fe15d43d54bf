import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildUser } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';

const sink = await startSmtpSink();
const codeOf = (text: string) => /(\d{6})/.exec(text)![1]!;
afterAll(() => sink.close());

describe('abnormal login needs a code sent to the account', () => {
  // The test plays clients at several addresses through a proxy at the injector's 127.0.0.1.
  const ctx = useTestApp({ smtpUrl: sink.url, loginRateLimitPerMinute: 10_000, trustProxy: ['127.0.0.1'] });
  const doLogin = (body: Record<string, unknown>, options: { ip?: string; language?: 'en' | 'cn' } = {}) =>
    call<{ accessToken?: string; needCode?: boolean; channel?: string }>(
      ctx.app,
      '/api/doLogin',
      { type: 1, platform: 1, ...body },
      { language: options.language, headers: options.ip ? { 'x-forwarded-for': options.ip } : {} },
    );

  it('trusts the first login, then asks a new device for a code and remembers it once proven', async () => {
    const user = await buildUser(ctx.app.db);
    const first = await doLogin({ account: user.account, password: user.password, deviceId: 'browser-aaaa' });
    expect(first.body.data.accessToken).toBeTruthy();
    const again = await doLogin({ account: user.account, password: user.password, deviceId: 'browser-aaaa' });
    expect(again.body.data.accessToken).toBeTruthy();

    const mail = sink.nextMail();
    const asked = await doLogin({ account: user.account, password: user.password, deviceId: 'browser-bbbb' });
    expect(asked.body).toEqual({
      msgCode: 200,
      msgContent: 'Unusual login: enter the verification code sent to your e-mail',
      data: { needCode: true, channel: 'email' },
    });
    const received = await mail;
    expect(received.to).toEqual([user.account]);
    expect(received.text).toContain('login verification code');

    const wrong = await doLogin(
      { account: user.account, password: user.password, deviceId: 'browser-bbbb', code: '000000' },
      { language: 'cn' },
    );
    // The one-in-a-million right guess would make this flaky only in theory; the code is random.
    expect(wrong.body.msgContent).toBe('验证码无效或已过期，请重新获取');
    const code = codeOf(received.text);
    const proven = await doLogin({
      account: user.account,
      password: user.password,
      deviceId: 'browser-bbbb',
      code,
    });
    expect(proven.body.msgCode).toBe(200);
    expect(proven.body.data.accessToken).toBeTruthy();
    const remembered = await doLogin({
      account: user.account,
      password: user.password,
      deviceId: 'browser-bbbb',
    });
    expect(remembered.body.data.accessToken).toBeTruthy();
  });

  it('asks for a code from a new IP address, and a wrong password there is still just wrong', async () => {
    const user = await buildUser(ctx.app.db);
    await doLogin({ account: user.account, password: user.password, deviceId: 'browser-cccc' });
    const wrongPassword = await doLogin(
      { account: user.account, password: 'Wrong1234', deviceId: 'browser-cccc' },
      { ip: '203.0.113.9' },
    );
    expect(wrongPassword.body.msgContent).toBe('Account or password is incorrect');
    const mail = sink.nextMail();
    const asked = await doLogin(
      { account: user.account, password: user.password, deviceId: 'browser-cccc' },
      { ip: '203.0.113.9', language: 'cn' },
    );
    expect(asked.body.msgContent).toBe('异常登录：请输入发送至您邮箱的验证码');
    expect(asked.body.data).toEqual({ needCode: true, channel: 'email' });
    const code = codeOf((await mail).text);
    // Asking again within the minute keeps the code already sent instead of failing.
    const askedAgain = await doLogin(
      { account: user.account, password: user.password, deviceId: 'browser-cccc' },
      { ip: '203.0.113.9' },
    );
    expect(askedAgain.body.data).toEqual({ needCode: true, channel: 'email' });
    const proven = await doLogin(
      { account: user.account, password: user.password, deviceId: 'browser-cccc', code },
      { ip: '203.0.113.9' },
    );
    expect(proven.body.data.accessToken).toBeTruthy();
  });

  it('asks for a code after 3 recent failures even from a known place', async () => {
    const user = await buildUser(ctx.app.db);
    await doLogin({ account: user.account, password: user.password, deviceId: 'browser-dddd' });
    for (let i = 0; i < 3; i++)
      await doLogin({ account: user.account, password: 'Wrong1234', deviceId: 'browser-dddd' });
    const mail = sink.nextMail();
    const asked = await doLogin({ account: user.account, password: user.password, deviceId: 'browser-dddd' });
    expect(asked.body.data).toEqual({ needCode: true, channel: 'email' });
    const code = codeOf((await mail).text);
    const proven = await doLogin({
      account: user.account,
      password: user.password,
      deviceId: 'browser-dddd',
      code,
    });
    expect(proven.body.data.accessToken).toBeTruthy();
    // The success cleared the failures: the next login needs no code.
    const next = await doLogin({ account: user.account, password: user.password, deviceId: 'browser-dddd' });
    expect(next.body.data.accessToken).toBeTruthy();
  });

  it('without a device id the user agent names the device', async () => {
    const user = await buildUser(ctx.app.db);
    const withAgent = (agent: string) =>
      call<{ accessToken?: string; needCode?: boolean }>(
        ctx.app,
        '/api/doLogin',
        { account: user.account, password: user.password, type: 1 },
        { headers: { 'user-agent': agent } },
      );
    expect((await withAgent('Firefox/140')).body.data.accessToken).toBeTruthy();
    expect((await withAgent('Firefox/140')).body.data.accessToken).toBeTruthy();
    expect((await withAgent('Chrome/141')).body.data.needCode).toBe(true);
  });
});

describe('abnormal login without a way to deliver the code', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  it('lets the right password in and notes it in the login log, since nobody could receive a code', async () => {
    const user = await buildUser(ctx.app.db);
    const body = { account: user.account, password: user.password, type: 1 };
    await call(ctx.app, '/api/doLogin', { ...body, deviceId: 'browser-eeee' });
    const other = await call<{ accessToken: string }>(ctx.app, '/api/doLogin', {
      ...body,
      deviceId: 'browser-ffff',
    });
    expect(other.body.data.accessToken).toBeTruthy();
    const log = await call<{ list: { reason: string; status: number }[] }>(
      ctx.app,
      '/api/userLoginLog/pageUserLog',
      {},
      { token: other.body.data.accessToken },
    );
    expect(log.body.data.list[0]).toMatchObject({ status: 1, reason: 'abnormal login, no code channel' });
  });
});
