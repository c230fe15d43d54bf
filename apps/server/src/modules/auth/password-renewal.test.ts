import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { companies } from '../companies/companies.table';
import { CLOSE_UNAUTHORIZED } from '../live/live.routes';
import { users } from '../users/users.table';

const DAY = 86_400_000;

describe('password renewal and password change', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  async function memberWithOldPassword(renewal: boolean, ageDays: number) {
    const company = await buildCompany(ctx.app.db);
    await ctx.app.db.update(companies).set({ passwordRenewal: renewal }).where(eq(companies.id, company.id));
    const user = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, user.id);
    await ctx.app.db
      .update(users)
      .set({ passwordChangedAt: new Date(Date.now() - ageDays * DAY) })
      .where(eq(users.id, user.id));
    return { company, user };
  }

  const doLogin = (account: string, password: string) =>
    call<{ accessToken: string }>(ctx.app, '/api/doLogin', { account, password, type: 1 });

  it('answers 301 with a token that may only change the password, then the new password logs in', async () => {
    const { user } = await memberWithOldPassword(true, 91);
    const older = await login(ctx.app, user.account).catch(() => null);
    expect(older).toBeNull();

    const due = await doLogin(user.account, user.password);
    expect(due.body.msgCode).toBe(301);
    expect(due.body.msgContent).toBe('Your password is older than 90 days; please change it');
    const token = due.body.data.accessToken;
    expect(token).toBeTruthy();

    const elsewhere = await call(ctx.app, '/api/user/userInfo', {}, { token, language: 'cn' });
    expect(elsewhere.body).toEqual({ msgCode: 301, msgContent: '请先修改密码', data: null });

    const update = (body: Record<string, string>, language: 'en' | 'cn' = 'en') =>
      call<{ loggedOut: boolean }>(ctx.app, '/api/user/updatePassword', body, { token, language });
    expect(
      (await update({ oldPassword: user.password, password: 'NewPass123', confirmPassword: 'NewPass124' }))
        .body.msgContent,
    ).toBe('Both Password Enter Not Match');
    expect(
      (
        await update(
          { oldPassword: 'Wrong1234', password: 'NewPass123', confirmPassword: 'NewPass123' },
          'cn',
        )
      ).body.msgContent,
    ).toBe('原密码错误');
    expect(
      (await update({ oldPassword: user.password, password: user.password, confirmPassword: user.password }))
        .body.msgContent,
    ).toBe('The new password must differ from the old one');
    expect(
      (await update({ oldPassword: user.password, password: 'short', confirmPassword: 'short' })).body
        .msgContent,
    ).toBe('Password must be 8-20 English letters and digits');

    const changed = await update({
      oldPassword: user.password,
      password: 'NewPass123',
      confirmPassword: 'NewPass123',
    });
    expect(changed.body).toEqual({
      msgCode: 200,
      msgContent: 'Password changed; please log in with the new password',
      data: { loggedOut: true },
    });
    expect((await call(ctx.app, '/api/user/userInfo', {}, { token })).body.msgCode).toBe(311);
    expect((await doLogin(user.account, user.password)).body.msgCode).toBe(500);
    const fresh = await doLogin(user.account, 'NewPass123');
    expect(fresh.body.msgCode).toBe(200);
  });

  it('a password-change-only token cannot bind the live channel', async () => {
    const { user } = await memberWithOldPassword(true, 100);
    const due = await doLogin(user.account, user.password);
    expect(due.body.msgCode).toBe(301);
    const socket = await ctx.app.injectWS('/api/ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ bindType: 2, bindContent: due.body.data.accessToken }));
    expect(await closed).toBe(CLOSE_UNAUTHORIZED);
  });

  it('needs no renewal when the company does not ask for it or the password is recent', async () => {
    const off = await memberWithOldPassword(false, 400);
    expect((await doLogin(off.user.account, off.user.password)).body.msgCode).toBe(200);
    const recent = await memberWithOldPassword(true, 89);
    expect((await doLogin(recent.user.account, recent.user.password)).body.msgCode).toBe(200);
  });

  it('a normal session keeps itself, ends the others and writes the audit trail', async () => {
    const { company, user } = await memberWithOldPassword(false, 1);
    const other = await login(ctx.app, user.account);
    const mine = await login(ctx.app, user.account);
    const changed = await call(
      ctx.app,
      '/api/user/updatePassword',
      { oldPassword: user.password, password: 'Another123', confirmPassword: 'Another123' },
      { token: mine },
    );
    expect(changed.body).toMatchObject({
      msgCode: 200,
      msgContent: 'Password changed; your other sessions have been logged out',
    });
    expect((await call(ctx.app, '/api/user/userInfo', {}, { token: mine })).body.msgCode).toBe(200);
    expect((await call(ctx.app, '/api/user/userInfo', {}, { token: other })).body.msgCode).toBe(311);
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user.updatePassword')));
    expect(audit.map((a) => a.userId)).toEqual([user.id]);
  });

  it('only a company administrator turns renewal on, with an audit entry', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id);
    const memberToken = await login(ctx.app, member.account);
    const refused = await call(
      ctx.app,
      '/api/loginSecurity/setPasswordRenewal',
      { enabled: true },
      { token: memberToken, companyId: company.id },
    );
    expect(refused.body.msgContent).toBe('No permission for this service or operation');
    const adminToken = await login(ctx.app, company.admin.account);
    const saved = await call(
      ctx.app,
      '/api/loginSecurity/setPasswordRenewal',
      { enabled: true },
      { token: adminToken, companyId: company.id },
    );
    expect(saved.body).toMatchObject({ msgCode: 200, msgContent: 'Password renewal setting saved' });
    const read = await call(
      ctx.app,
      '/api/loginSecurity/getPasswordRenewal',
      {},
      { token: memberToken, companyId: company.id },
    );
    expect(read.body.data).toEqual({ enabled: true, days: 90 });
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'company.passwordRenewal')));
    expect(audit).toHaveLength(1);
  });
});
