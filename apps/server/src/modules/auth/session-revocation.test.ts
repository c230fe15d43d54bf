import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildUser, DEFAULT_PASSWORD, login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { createMailer } from '../notify/mailer';
import { sessions, users } from '../users/users.table';
import { sweepInactiveAccounts } from './account-cancellation';
import { expectCached, statementsOf } from './auth-test-support';
import { inactivityWarnings } from './login-security.table';

const sink = await startSmtpSink();
const mailer = createMailer(sink.url, 'ColdChain <noreply@example.com>');
afterAll(async () => {
  mailer?.close();
  await sink.close();
});
const DAY = 86_400_000;
const userInfo = (ctx: { app: Parameters<typeof call>[0] }, token: string) =>
  call(ctx.app, '/api/user/userInfo', {}, { token }).then((r) => r.body.msgCode);
const powers = '/api/index/getUserPowers';

/**
 * Sessions are cached by token (docs/decisions.md, "Caller cache"); every change that ends one must
 * end it at once, not when the entry ages out. Each test first proves the token's caller is
 * answered from the cache (expectCached), so the next call would still be if the change had not
 * reached it.
 */
describe('a cached session ends at once', () => {
  const ctx = useTestApp({
    smtpUrl: sink.url,
    codeRateLimitPerMinute: 1000,
    loginRateLimitPerMinute: 10_000,
  });

  it('is cached: the second call reads nothing to know its caller', async () => {
    const company = await buildCompany(ctx.app.db);
    // A member added by the factory, not through a call: nothing about them changed a moment ago
    // (what is loaded just after a change is not kept, auth-cache.ts).
    const user = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, user.id, true);
    const token = await login(ctx.app, user.account);
    const first = await statementsOf(ctx.app, powers, {}, { token });
    const second = await statementsOf(ctx.app, powers, {}, { token });
    expect(first).toMatchObject({ msgCode: 200, count: 1 });
    expect(second).toMatchObject({ msgCode: 200, count: 0 });
  });

  it('at logout', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    expect(await userInfo(ctx, token)).toBe(200);
    await expectCached(ctx.app, token);
    expect((await call(ctx.app, '/api/logout', {}, { token })).body.msgCode).toBe(200);
    expect(await userInfo(ctx, token)).toBe(311);
  });

  it('on a password change: the other sessions end, this one stays', async () => {
    const user = await buildUser(ctx.app.db);
    const here = await login(ctx.app, user.account);
    const there = await login(ctx.app, user.account);
    expect(await userInfo(ctx, here)).toBe(200);
    expect(await userInfo(ctx, there)).toBe(200);
    await expectCached(ctx.app, there);
    const changed = await call(
      ctx.app,
      '/api/user/updatePassword',
      { oldPassword: DEFAULT_PASSWORD, password: 'Changed2026', confirmPassword: 'Changed2026' },
      { token: here },
    );
    expect(changed.body.msgCode).toBe(200);
    expect(await userInfo(ctx, there)).toBe(311);
    expect(await userInfo(ctx, here)).toBe(200);
  });

  it('on a password reset by recovery: every session ends', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    expect(await userInfo(ctx, token)).toBe(200);
    await expectCached(ctx.app, token);
    const mail = sink.nextMail();
    await call(ctx.app, '/api/getAccountCode', { account: user.account });
    const code = /(\d{6})/.exec((await mail).text)![1]!;
    const checked = await call<{ ticket: string }>(ctx.app, '/api/checkCode', {
      account: user.account,
      code,
    });
    const reset = await call(ctx.app, '/api/resetPassword', {
      account: user.account,
      ticket: checked.body.data.ticket,
      password: 'Recovered2026',
      confirmPassword: 'Recovered2026',
    });
    expect(reset.body.msgCode).toBe(200);
    expect(await userInfo(ctx, token)).toBe(311);
  });

  it('when the account is cancelled after a year without login', async () => {
    const company = await buildCompany(ctx.app.db);
    const user = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, user.id);
    const token = await login(ctx.app, user.account);
    expect(await userInfo(ctx, token)).toBe(200);
    await expectCached(ctx.app, token);
    await ctx.app.db
      .update(users)
      .set({ lastLoginAt: new Date(Date.now() - 371 * DAY) })
      .where(eq(users.id, user.id));
    await ctx.app.db
      .insert(inactivityWarnings)
      .values({ userId: user.id, warnedAt: new Date(Date.now() - 31 * DAY) });
    expect((await sweepInactiveAccounts(ctx.app.db, mailer)).cancelled).toContain(user.id);
    expect(await userInfo(ctx, token)).toBe(311);
  });

  it('slides the expiry in the database at most once a minute, and the cache follows it', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const stale = new Date(Date.now() - 5 * 60_000);
    await ctx.app.db
      .update(sessions)
      .set({ lastSeenAt: stale, expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(sessions.userId, user.id));
    const touched = await statementsOf(ctx.app, powers, {}, { token });
    expect(touched.count).toBe(2);
    expect(touched.texts[1]).toMatch(/^update "sessions"/);
    const [row] = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + ctx.config.sessionIdleMs - 60_000);
    expect(row!.lastSeenAt.getTime()).toBeGreaterThan(stale.getTime());
    expect((await statementsOf(ctx.app, powers, {}, { token })).count).toBe(0);
  });

  it('stores a new language once, and the cache remembers it', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    expect((await statementsOf(ctx.app, powers, {}, { token, language: 'en' })).count).toBe(1);
    const switched = await statementsOf(ctx.app, powers, {}, { token, language: 'cn' });
    expect(switched.count).toBe(1);
    expect(switched.texts[0]).toMatch(/^update "users"/);
    expect((await statementsOf(ctx.app, powers, {}, { token, language: 'cn' })).count).toBe(0);
    const [row] = await ctx.app.db
      .select({ language: users.language })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row!.language).toBe('cn');
  });
});

describe('a cached session past its idle time', () => {
  const ctx = useTestApp({ sessionIdleMs: 1_500 });

  it('answers 311 once the idle time has passed, even inside the cache time to live', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    expect(await userInfo(ctx, token)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await userInfo(ctx, token)).toBe(311);
  });
});
