import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { loginLog } from '../audit/audit.table';
import { accessTickets } from '../system/tickets.table';

/*
 * The data-screen ticket (`/api/datav/getEncryptionUser`) is redeemed once, within 5 minutes,
 * by `/api/datav/redeemTicket` for a session of the user who asked for it.
 */
describe('data screen ticket', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const redeem = (ticket: string, language: 'en' | 'cn' = 'en') =>
    call<{ accessToken: string; expireTime: number }>(
      ctx.app,
      '/api/datav/redeemTicket',
      { ticket },
      { language },
    );

  it('opens a session of the issuing user once, and logs it', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const issued = await call<{ ticket: string }>(ctx.app, '/api/datav/getEncryptionUser', {}, { token });
    const { ticket } = issued.body.data;

    const first = await redeem(ticket);
    expect(first.body.msgCode).toBe(200);
    const session = first.body.data.accessToken;
    expect(session).not.toBe(token);
    const info = await call<{ id: string }>(ctx.app, '/api/user/userInfo', {}, { token: session });
    expect(info.body.data.id).toBe(String(company.admin.id));

    const again = await redeem(ticket);
    expect(again.body).toMatchObject({
      msgCode: 500,
      msgContent:
        'This data screen link is invalid, used or older than 5 minutes; open the data screen again from the console',
    });
    const logged = await ctx.app.db
      .select({ status: loginLog.status, method: loginLog.method })
      .from(loginLog)
      .where(and(eq(loginLog.userId, company.admin.id), eq(loginLog.method, 'ticket')));
    // The second try named no user (the ticket was gone), so only the success is the admin's.
    expect(logged).toEqual([{ status: 1, method: 'ticket' }]);
  });

  it('refuses an expired ticket, and a malformed one by naming the field', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { ticket } = (
      await call<{ ticket: string }>(ctx.app, '/api/datav/getEncryptionUser', {}, { token })
    ).body.data;
    await ctx.app.db.update(accessTickets).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await redeem(ticket, 'cn')).body.msgContent).toBe(
      '该数据大屏链接无效、已使用或已超过 5 分钟，请从控制台重新打开数据大屏',
    );
    const bad = await redeem('not a ticket');
    expect(bad.body.msgCode).toBe(500);
    expect(bad.body.msgContent).toBe('Verification is not a valid data screen ticket');
  });
});
