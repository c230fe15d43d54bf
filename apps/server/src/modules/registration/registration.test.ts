import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildUser, login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { auditLog } from '../audit/audit.table';
import { creditBalance } from '../delivery/credits.service';
import { OutboxStatus, outboxMessages } from '../notify/outbox.table';
import { users } from '../users/users.table';

const sink = await startSmtpSink();

function codeIn(text: string): string {
  const match = /code is (\d{6})|验证码是 (\d{6})/.exec(text);
  if (!match) throw new Error(`no code in mail:\n${text}`);
  return (match[1] ?? match[2])!;
}

describe('registration by e-mail', () => {
  const ctx = useTestApp({ smtpUrl: sink.url, codeRateLimitPerMinute: 1000 });
  afterAll(() => sink.close());

  it('sends a code through SMTP, registers with it, and the new account can log in and found a company', async () => {
    const account = 'New.User@Example.com';
    const mail = sink.nextMail();
    const sent = await call<{ channel: string }>(ctx.app, '/api/register/getPhoneCode', { account });
    expect(sent.body).toEqual({
      msgCode: 200,
      msgContent: 'The code was sent to your e-mail',
      data: { channel: 'email' },
    });
    const received = await mail;
    expect(received.to).toEqual(['new.user@example.com']);
    const code = codeIn(received.text);

    const registered = await call<{ id: string }>(ctx.app, '/api/register/registerAccount', {
      account,
      code,
      password: 'Fridge2024',
      name: 'Nurse Lee',
    });
    expect(registered.body.msgCode).toBe(200);
    const token = await login(ctx.app, 'new.user@example.com', 'Fridge2024');

    const created = await call<{ id: string }>(
      ctx.app,
      '/api/user/createCompany',
      { name: 'Ward 7 Pharmacy', industry: 'healthcare' },
      { token },
    );
    expect(created.body.msgContent).toBe('Company created');
    const companies = await call<{ id: string; name: string; isAdmin: boolean; current: boolean }[]>(
      ctx.app,
      '/api/index/getUserCompanys',
      {},
      { token },
    );
    expect(companies.body.data).toEqual([
      expect.objectContaining({
        id: created.body.data.id,
        name: 'Ward 7 Pharmacy',
        isAdmin: true,
        current: true,
      }),
    ]);
    // The company's trail starts with its creation.
    const trail = await call<{ list: { action: string }[] }>(
      ctx.app,
      '/api/audit/pageOperationLog',
      {},
      { token },
    );
    expect(trail.body.data.list.map((e) => e.action)).toEqual(['company.create']);
    // A new company can alarm at once: it starts with message credit (STARTER_CREDITS), not none.
    expect(await creditBalance(ctx.app.db, Number(created.body.data.id))).toBe(ctx.config.starterCredits);
    expect(ctx.config.starterCredits).toBeGreaterThan(0);
    // The code is single-use.
    const again = await call(ctx.app, '/api/register/registerAccount', {
      account: 'other@example.com',
      code,
      password: 'Fridge2024',
    });
    expect(again.body.msgContent).toBe('Verification code invalid or expired; request a new one');
  });

  it('allows five tries, then asks for a new code; a new code cannot be asked for within a minute', async () => {
    const account = 'tries@example.com';
    const mail = sink.nextMail();
    await call(ctx.app, '/api/register/getPhoneCode', { account }, { language: 'cn' });
    const code = codeIn((await mail).text);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await call(ctx.app, '/api/register/registerAccount', {
        account,
        code: wrong,
        password: 'Fridge2024',
      });
      answers.push(body.msgContent);
    }
    expect(
      answers.slice(0, 4).every((a) => a === 'Verification code invalid or expired; request a new one'),
    ).toBe(true);
    expect(answers[4]).toBe('Too many wrong codes; request a new one');
    const right = await call(
      ctx.app,
      '/api/register/registerAccount',
      { account, code, password: 'Fridge2024' },
      { language: 'cn' },
    );
    expect(right.body.msgContent).toBe('验证码错误次数过多，请重新获取');
    const soon = await call(ctx.app, '/api/register/getPhoneCode', { account }, { language: 'cn' });
    expect(soon.body.msgContent).toMatch(/^验证码已发送，请 \d+ 秒后再试$/);
  });

  it('refuses an expired code', async () => {
    const account = 'late@example.com';
    const mail = sink.nextMail();
    await call(ctx.app, '/api/register/getPhoneCode', { account });
    const code = codeIn((await mail).text);
    await ctx.app.db.execute(
      sql`update verification_codes set expires_at = now() - interval '1 second' where account = ${account}`,
    );
    const { body } = await call(ctx.app, '/api/register/registerAccount', {
      account,
      code,
      password: 'Fridge2024',
    });
    expect(body.msgContent).toBe('Verification code invalid or expired; request a new one');
  });

  it.each([
    [
      { account: 'x@example.com', code: '12345', password: 'Fridge2024' },
      'en',
      'Verification code must be 6 digits',
    ],
    [
      { account: 'x@example.com', code: '123456', password: 'short' },
      'en',
      'Password must be 8-20 English letters and digits',
    ],
    [
      { account: 'x@example.com', code: '123456', password: 'with space 1' },
      'cn',
      '密码须为 8-20 位英文字母和数字',
    ],
    [{ account: '12', code: '123456', password: 'Fridge2024' }, 'cn', '账号：请输入正确的手机号或邮箱'],
  ] as const)('names the field of %j (%s)', async (input, language, message) => {
    const { body } = await call(ctx.app, '/api/register/registerAccount', input, { language });
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
  });

  it('refuses an account that exists, and keeps SMS codes in the outbox until a provider exists', async () => {
    const existing = await buildUser(ctx.app.db);
    const taken = await call(ctx.app, '/api/register/getPhoneCode', { account: existing.account });
    expect(taken.body.msgContent).toBe('This account is already registered');
    const sms = await call<{ channel: string }>(ctx.app, '/api/register/getPhoneCode', {
      account: '+60123456789',
    });
    expect(sms.body).toMatchObject({ msgCode: 200, data: { channel: 'sms' } });
    const [row] = await ctx.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, '+60123456789'));
    expect(row).toMatchObject({ channel: 'sms', status: OutboxStatus.NoProvider });
    expect(row!.body).toMatch(/code is \d{6}/);
  });

  it('validates the company name and lists industries in the request language', async () => {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const short = await call(ctx.app, '/api/user/createCompany', { name: 'A' }, { token, language: 'cn' });
    expect(short.body.msgContent).toBe('名称至少 2 个字符');
    const industries = await call<{ value: string; label: string }[]>(
      ctx.app,
      '/api/user/industryList',
      {},
      { language: 'cn' },
    );
    expect(industries.body.data[0]).toEqual({ value: 'healthcare', label: '医疗卫生' });
  });
});

describe('code-sending rate limit', () => {
  const ctx = useTestApp({ codeRateLimitPerMinute: 2 });

  it('answers 429 after the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await call(ctx.app, '/api/register/getPhoneCode', { account: `r${i}@example.com` })).status,
      );
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('completing one’s information after registering', () => {
  const ctx = useTestApp();

  it('saves name, gender and the phone of an e-mail account; keeps the account’s own e-mail', async () => {
    const user = await buildUser(ctx.app.db, { account: 'fresh@example.com', name: 'fresh' });
    const token = await login(ctx.app, user.account);
    const { body } = await call<Record<string, unknown>>(
      ctx.app,
      '/api/register/modifyInformation',
      { name: '李护士', gender: 2, phone: '13800001234', email: 'other@example.com' },
      { token, language: 'cn' },
    );
    expect(body.msgCode).toBe(200);
    expect(body.msgContent).toBe('个人信息已保存');
    expect(body.data).toMatchObject({
      name: '李护士',
      gender: 2,
      phone: '13800001234',
      email: 'fresh@example.com',
    });
  });

  it('audits the change in the company in scope, like the personal centre', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    await call(ctx.app, '/api/register/modifyInformation', { name: 'Nurse Lee' }, { token });
    const entries = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user.updateProfile')));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ userId: company.admin.id, after: { name: 'Nurse Lee' } });
  });

  it.each([
    [{ name: 'A' }, 'en', 'Name must be 2-20 letters and digits, or 2-100 characters in Chinese'],
    [{ name: '王' }, 'cn', '名称须为 2-20 位英文字母和数字，或 2-100 个中文字符'],
    [{}, 'en', 'Name is required'],
    [{ name: 'Nurse Lee', phone: '12ab' }, 'en', 'Phone: enter a correct mobile number'],
    [{ name: 'Nurse Lee', email: 'nope' }, 'cn', '邮箱：请输入正确的邮箱'],
  ] as const)('refuses %j (%s), naming the field, and changes nothing', async (input, language, message) => {
    const user = await buildUser(ctx.app.db, { name: 'Before' });
    const token = await login(ctx.app, user.account);
    const { body } = await call(ctx.app, '/api/register/modifyInformation', input, { token, language });
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.name).toBe('Before');
  });

  it('needs a login', async () => {
    const { body } = await call(ctx.app, '/api/register/modifyInformation', { name: 'Nurse Lee' });
    expect(body.msgCode).not.toBe(200);
  });
});
