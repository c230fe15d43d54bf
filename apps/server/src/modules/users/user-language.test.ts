import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { users } from './users.table';

const sink = await startSmtpSink();

describe('the user language follows the language header', () => {
  const ctx = useTestApp({ smtpUrl: sink.url, codeRateLimitPerMinute: 1000 });
  afterAll(() => sink.close());
  afterEach(() => vi.restoreAllMocks());

  const languageOf = async (userId: number) =>
    (await ctx.app.db.select({ language: users.language }).from(users).where(eq(users.id, userId)))[0]!
      .language;

  it('is stored when the header differs and written only when it changes', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const userId = company.admin.id;
    expect(await languageOf(userId)).toBe('en');

    // Count writes to the users table made while authenticating calls.
    const update = vi.spyOn(ctx.app.db, 'update');
    const userWrites = () => update.mock.calls.filter(([table]) => table === users).length;
    const userInfo = (language?: 'cn' | 'en') =>
      call(ctx.app, '/api/user/userInfo', {}, { token, language }).then((r) => r.body.msgCode);

    expect(await userInfo('en')).toBe(200);
    expect(userWrites()).toBe(0);
    expect(await userInfo('cn')).toBe(200);
    expect(await languageOf(userId)).toBe('cn');
    expect(userWrites()).toBe(1);
    for (let i = 0; i < 3; i++) expect(await userInfo('cn')).toBe(200);
    // A call without the header says nothing about the language.
    expect(await userInfo()).toBe(200);
    expect(userWrites()).toBe(1);
    expect(await languageOf(userId)).toBe('cn');
    expect(await userInfo('en')).toBe(200);
    expect(await languageOf(userId)).toBe('en');
    expect(userWrites()).toBe(2);
  });

  it('registration stores the language of the registering call', async () => {
    const account = 'chinese.user@example.com';
    const mail = sink.nextMail();
    await call(ctx.app, '/api/register/getPhoneCode', { account }, { language: 'cn' });
    const code = /验证码是 (\d{6})|code is (\d{6})/
      .exec((await mail).text)!
      .slice(1)
      .find(Boolean)!;
    const registered = await call<{ id: string }>(
      ctx.app,
      '/api/register/registerAccount',
      { account, code, password: 'Fridge2024', name: '李护士' },
      { language: 'cn' },
    );
    expect(registered.body.msgCode).toBe(200);
    const [user] = await ctx.app.db.select().from(users).where(eq(users.account, account));
    expect(user!.language).toBe('cn');
  });
});
