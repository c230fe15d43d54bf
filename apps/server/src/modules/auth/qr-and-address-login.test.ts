import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens';
import { call, useTestApp } from '../../test/build-app';
import { buildUser, login } from '../../test/factories';
import { addressLoginCodes, qrLoginTickets } from './login-security.table';

describe('QR login', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const poll = (ticket: string) =>
    call<{ state: string; accessToken?: string }>(ctx.app, '/api/qrLogin/pollTicket', { ticket });

  it('hands the confirming user a session to the polling page exactly once', async () => {
    const phoneUser = await buildUser(ctx.app.db);
    const phone = await login(ctx.app, phoneUser.account);
    const created = await call<{ ticket: string; expireTime: number }>(ctx.app, '/api/qrLogin/createTicket');
    const { ticket, expireTime } = created.body.data;
    expect(expireTime - Date.now()).toBeGreaterThan(110_000);
    expect(expireTime - Date.now()).toBeLessThanOrEqual(120_000);
    expect((await poll(ticket)).body.data).toEqual({ state: 'waiting' });

    expect((await call(ctx.app, '/api/qrLogin/confirmTicket', { ticket })).body.msgCode).toBe(311);
    expect((await call(ctx.app, '/api/qrLogin/scanTicket', { ticket }, { token: phone })).body.msgCode).toBe(
      200,
    );
    expect((await poll(ticket)).body.data).toEqual({ state: 'scanned' });
    const confirmed = await call(ctx.app, '/api/qrLogin/confirmTicket', { ticket }, { token: phone });
    expect(confirmed.body).toMatchObject({ msgCode: 200, msgContent: 'Login confirmed on the other device' });

    const first = await poll(ticket);
    expect(first.body.data.state).toBe('confirmed');
    const token = first.body.data.accessToken!;
    const info = await call<{ id: string }>(ctx.app, '/api/user/userInfo', {}, { token });
    expect(info.body.data.id).toBe(String(phoneUser.id));
    expect((await poll(ticket)).body.data).toEqual({ state: 'expired' });
    // A used ticket cannot be confirmed again.
    const again = await call(
      ctx.app,
      '/api/qrLogin/confirmTicket',
      { ticket },
      { token: phone, language: 'cn' },
    );
    expect(again.body.msgContent).toBe('二维码已失效，请点击二维码刷新');
  });

  it('an expired ticket polls as expired and cannot be confirmed', async () => {
    const user = await buildUser(ctx.app.db);
    const phone = await login(ctx.app, user.account);
    const { ticket } = (await call<{ ticket: string }>(ctx.app, '/api/qrLogin/createTicket')).body.data;
    await ctx.app.db
      .update(qrLoginTickets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(qrLoginTickets.ticketHash, hashToken(ticket)));
    expect((await poll(ticket)).body.data).toEqual({ state: 'expired' });
    const confirm = await call(ctx.app, '/api/qrLogin/confirmTicket', { ticket }, { token: phone });
    expect(confirm.body).toEqual({
      msgCode: 500,
      msgContent: 'Verification code invalid; click the QR code to refresh',
      data: null,
    });
    const unknown = await poll('x'.repeat(43));
    expect(unknown.body.data).toEqual({ state: 'expired' });
    expect((await poll('short')).body.msgCode).toBe(500);
  });
});

describe('address-code login (/api/doLoginCode)', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  it('logs a kiosk in once with a code the user issued', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const issued = await call<{ code: string; expireTime: number }>(
      ctx.app,
      '/api/loginCode/createAddressCode',
      {},
      { token },
    );
    const { code, expireTime } = issued.body.data;
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(expireTime - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const stored = await ctx.app.db
      .select()
      .from(addressLoginCodes)
      .where(eq(addressLoginCodes.userId, user.id));
    expect(stored[0]!.codeHash).not.toContain(code);

    const kiosk = await call<{ accessToken: string }>(ctx.app, '/api/doLoginCode', {
      account: code.toLowerCase(),
      type: 3,
      platform: 1,
    });
    expect(kiosk.body.msgCode).toBe(200);
    const info = await call<{ id: string }>(
      ctx.app,
      '/api/user/userInfo',
      {},
      { token: kiosk.body.data.accessToken },
    );
    expect(info.body.data.id).toBe(String(user.id));

    const reused = await call(ctx.app, '/api/doLoginCode', { account: code, type: 3 }, { language: 'cn' });
    expect(reused.body.msgContent).toBe('该登录链接无效、已使用或已过期，请重新获取');
    const malformed = await call(ctx.app, '/api/doLoginCode', { account: '12', type: 3 });
    expect(malformed.body.msgContent).toBe('Account: enter the 10-character code of the login link');
    expect((await call(ctx.app, '/api/loginCode/createAddressCode')).body.msgCode).toBe(311);
  });

  it('an expired code does not log in', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const { code } = (
      await call<{ code: string }>(ctx.app, '/api/loginCode/createAddressCode', {}, { token })
    ).body.data;
    await ctx.app.db
      .update(addressLoginCodes)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(addressLoginCodes.userId, user.id));
    const expired = await call(ctx.app, '/api/doLoginCode', { account: code, type: 3 });
    expect(expired.body.msgContent).toBe('This login link is invalid, used or expired; ask for a new one');
  });

  it('lists international area codes with English and Chinese names without login', async () => {
    const list = await call<{ code: string; en: string; cn: string }[]>(
      ctx.app,
      '/api/getInternationalAreaCode',
    );
    expect(list.body.data).toContainEqual({ code: '+60', en: 'Malaysia', cn: '马来西亚' });
    expect(list.body.data).toContainEqual({ code: '+86', en: 'China', cn: '中国' });
  });
});
