import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { users } from '../users/users.table';
import { bindState } from './wechat.service';

const APP_ID = 'wx-test-app';
const APP_SECRET = 'wx-test-secret';

/** A stand-in for api.weixin.qq.com that checks every request the way WeChat would. */
interface FakeWeChat {
  server: Server;
  baseUrl: string;
  requests: URL[];
  /** code -> openid */
  codes: Map<string, string>;
  followers: Set<string>;
}

function startFakeWeChat(): Promise<FakeWeChat> {
  const fake = {
    requests: [] as URL[],
    codes: new Map<string, string>(),
    followers: new Set<string>(),
  } as FakeWeChat;
  const reply = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  fake.server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push(url);
    const q = url.searchParams;
    if (req.method !== 'GET') return reply(res, { errcode: 43001, errmsg: 'require GET method' });
    if (url.pathname === '/sns/oauth2/access_token') {
      if (q.get('appid') !== APP_ID || q.get('secret') !== APP_SECRET)
        return reply(res, { errcode: 40125, errmsg: 'invalid appsecret' });
      if (q.get('grant_type') !== 'authorization_code')
        return reply(res, { errcode: 40002, errmsg: 'invalid grant_type' });
      const openid = fake.codes.get(q.get('code') ?? '');
      if (!openid) return reply(res, { errcode: 40029, errmsg: 'invalid code' });
      fake.codes.delete(q.get('code')!);
      return reply(res, { access_token: 'user-token', expires_in: 7200, openid, scope: 'snsapi_base' });
    }
    if (url.pathname === '/cgi-bin/token') {
      if (
        q.get('grant_type') !== 'client_credential' ||
        q.get('appid') !== APP_ID ||
        q.get('secret') !== APP_SECRET
      ) {
        return reply(res, { errcode: 40013, errmsg: 'invalid appid' });
      }
      return reply(res, { access_token: 'app-token', expires_in: 7200 });
    }
    if (url.pathname === '/cgi-bin/user/info') {
      if (q.get('access_token') !== 'app-token')
        return reply(res, { errcode: 40001, errmsg: 'invalid credential' });
      const openid = q.get('openid') ?? '';
      return reply(res, fake.followers.has(openid) ? { subscribe: 1, openid } : { subscribe: 0, openid });
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    fake.server.listen(0, '127.0.0.1', () => {
      fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
      resolve(fake);
    });
  });
}

const fake = await startFakeWeChat();
afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

describe('WeChat binding', () => {
  const account = {
    baseUrl: fake.baseUrl,
    oauthUrl: 'https://open.weixin.qq.com',
    appId: APP_ID,
    appSecret: APP_SECRET,
  };
  const ctx = useTestApp({ wechatAccount: account });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  async function member() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    return { company, token, user: company.admin };
  }

  it('gives the authorisation address with the app id, return address and a state tied to the session', async () => {
    const { token } = await member();
    const { body } = await call<{ url: string; state: string }>(
      ctx.app,
      '/api/user/getWeChatPublicAttentionUrl',
      { redirectUri: 'https://console.example.com/user/personalCenter' },
      { token },
    );
    const url = new URL(body.data.url);
    expect(url.origin + url.pathname).toBe('https://open.weixin.qq.com/connect/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: APP_ID,
      redirect_uri: 'https://console.example.com/user/personalCenter',
      response_type: 'code',
      scope: 'snsapi_base',
      state: bindState(token),
    });
    expect(url.hash).toBe('#wechat_redirect');
    expect(body.data.state).toBe(bindState(token));
  });

  it('exchanges the code for the openid, stores it with the follow status, and unbinds', async () => {
    const { company, token, user } = await member();
    fake.codes.set('code-1', 'openid-follower');
    fake.followers.add('openid-follower');
    const { body } = await call(
      ctx.app,
      '/api/user/bindWeChat',
      { code: 'code-1', state: bindState(token) },
      { token },
    );
    expect(body).toEqual({ msgCode: 200, msgContent: 'WeChat bound', data: { followed: true } });
    const exchange = fake.requests.find((r) => r.pathname === '/sns/oauth2/access_token')!;
    expect(Object.fromEntries(exchange.searchParams)).toEqual({
      appid: APP_ID,
      secret: APP_SECRET,
      code: 'code-1',
      grant_type: 'authorization_code',
    });
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ wechatOpenId: 'openid-follower', wechatFollowed: true });
    const info = await call(ctx.app, '/api/user/personalInfo', {}, { token });
    expect(info.body.data).toMatchObject({ wechatBound: true, wechatFollowed: true });

    const official = await call(ctx.app, '/api/user/unbindWeChatOfficial', undefined, {
      token,
      language: 'cn',
    });
    expect(official.body.msgContent).toBe('已取消公众号消息推送');
    const [afterOfficial] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(afterOfficial).toMatchObject({ wechatOpenId: 'openid-follower', wechatFollowed: false });

    const refreshed = await call(ctx.app, '/api/user/weChatFollowStatus', {}, { token });
    expect(refreshed.body.data).toEqual({ bound: true, followed: true });

    const unbound = await call(ctx.app, '/api/user/unbindWeChat', undefined, { token });
    expect(unbound.body.msgContent).toBe('WeChat unbound');
    const [afterUnbind] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(afterUnbind).toMatchObject({ wechatOpenId: null, wechatFollowed: false });
    const actions = (
      await ctx.app.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.companyId, company.id))
    ).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['user.bindWeChat', 'user.unbindWeChatOfficial', 'user.unbindWeChat']),
    );
  });

  it('binds a user who does not follow the official account as not following', async () => {
    const { token } = await member();
    fake.codes.set('code-2', 'openid-quiet');
    const { body } = await call(ctx.app, '/api/user/bindWeChat', { code: 'code-2' }, { token });
    expect(body.data).toEqual({ followed: false });
    expect(fake.requests.map((r) => r.pathname)).toContain('/cgi-bin/user/info');
  });

  it("answers 'Bind failed, please retry' for a bad code or a state of another session, and binds nothing", async () => {
    const { token, user } = await member();
    const bad = await call(ctx.app, '/api/user/bindWeChat', { code: 'unknown' }, { token, language: 'cn' });
    expect(bad.body).toEqual({ msgCode: 500, msgContent: '绑定失败，请重试', data: null });
    fake.codes.set('code-3', 'openid-victim');
    const forged = await call(
      ctx.app,
      '/api/user/bindWeChat',
      { code: 'code-3', state: bindState('another-token') },
      { token },
    );
    expect(forged.body.msgContent).toBe('Bind failed, please retry');
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.wechatOpenId).toBeNull();
    const empty = await call(ctx.app, '/api/user/bindWeChat', { code: ' ' }, { token });
    expect(empty.body.msgContent).toBe('Verification code is required');
  });

  it('refuses a WeChat account that another user has bound', async () => {
    const first = await member();
    const second = await member();
    fake.codes.set('code-a', 'openid-shared');
    await call(ctx.app, '/api/user/bindWeChat', { code: 'code-a' }, { token: first.token });
    fake.codes.set('code-b', 'openid-shared');
    const { body } = await call(ctx.app, '/api/user/bindWeChat', { code: 'code-b' }, { token: second.token });
    expect(body.msgContent).toBe('This WeChat account is already bound to another user');
  });
});

describe('WeChat binding without configuration', () => {
  const ctx = useTestApp();

  it('says WeChat is not configured', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call(ctx.app, '/api/user/bindWeChat', { code: 'x' }, { token });
    expect(body).toEqual({ msgCode: 500, msgContent: 'WeChat is not configured on this server', data: null });
  });
});
