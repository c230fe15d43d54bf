import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildUser,
  DEFAULT_PASSWORD,
  login,
} from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { departments } from '../org/org.table';
import { users } from '../users/users.table';

const AVATAR = '/files/0123456789abcdef0123456789abcdef.png';

describe('personal centre', () => {
  const ctx = useTestApp();

  async function member() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    return { company, token, user: company.admin };
  }

  it('shows the profile with company, department and role', async () => {
    const { token, user } = await member();
    const { body } = await call<Record<string, unknown>>(ctx.app, '/api/user/personalInfo', {}, { token });
    expect(body.data).toMatchObject({
      id: String(user.id),
      account: user.account,
      name: 'Company Admin',
      gender: 0,
      email: user.account,
      phone: '',
      altPhone: '',
      headImg: '',
      pcAlarmVoice: true,
      signPasswordSet: false,
      wechatBound: false,
      wechatFollowed: false,
    });
    expect(body.data.company).not.toBe('');
    expect(body.data.department).not.toBe('');
  });

  it('saves name, gender, phones, e-mail, picture and the alarm sound, and audits the change', async () => {
    const { company, token, user } = await member();
    const { body } = await call<Record<string, unknown>>(
      ctx.app,
      '/api/user/updateUserInfo',
      {
        name: '张三',
        gender: 1,
        phone: '+60 12-345 6789',
        altPhone: '13800001234',
        email: 'me@example.org',
        headImg: AVATAR,
        pcAlarmVoice: false,
      },
      { token, language: 'cn' },
    );
    expect(body.msgCode).toBe(200);
    expect(body.msgContent).toBe('个人信息已保存');
    expect(body.data).toMatchObject({ name: '张三', gender: 1, headImg: AVATAR, pcAlarmVoice: false });
    const info = await call<Record<string, unknown>>(ctx.app, '/api/user/userInfo', {}, { token });
    expect(info.body.data).toMatchObject({ relName: '张三', headImg: AVATAR, pcAlarmVoice: false });
    const entries = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user.updateProfile')));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ userId: user.id, targetId: String(user.id) });
    expect(entries[0]!.before).toMatchObject({ name: 'Company Admin', pcAlarmVoice: true });

    // Only what is sent changes: the alarm-sound toggle alone.
    await call(ctx.app, '/api/user/updateUserInfo', { pcAlarmVoice: true }, { token });
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: '张三', pcAlarmVoice: true, altPhone: '13800001234' });
  });

  it.each([
    [{ name: 'A' }, 'en', 'Name must be 2-20 letters and digits, or 2-100 characters in Chinese'],
    [{ name: 'Bad_Name!' }, 'en', 'Name must be 2-20 letters and digits, or 2-100 characters in Chinese'],
    [{ name: 'x'.repeat(21) }, 'cn', '名称须为 2-20 位英文字母和数字，或 2-100 个中文字符'],
    [{ gender: 3 }, 'en', 'Gender must be at most 2'],
    [{ phone: '12ab' }, 'en', 'Phone: enter a correct mobile number'],
    [{ altPhone: '000' }, 'cn', '备用手机号：请输入正确的手机号'],
    [{ email: 'not-an-email' }, 'en', 'E-mail: enter a correct e-mail address'],
    // Markup after a valid-looking address (issue 13): the rule is the whole address, not a prefix.
    [{ email: 'a@b.c<script>' }, 'en', 'E-mail: enter a correct e-mail address'],
    [{ email: '"x<img src=x>"@example.com' }, 'cn', '邮箱：请输入正确的邮箱'],
    [
      { headImg: 'https://evil.example.com/a.png' },
      'en',
      'Profile picture must be a file uploaded to this server',
    ],
    [{ pcAlarmVoice: 'yes' }, 'en', 'Alarm sound has the wrong type'],
  ] as const)('refuses %j (%s)', async (input, language, message) => {
    const { token, user } = await member();
    const { body } = await call(ctx.app, '/api/user/updateUserInfo', input, { token, language });
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.name).toBe('Company Admin');
  });

  it('reports whether a mobile number is bound, masked', async () => {
    const { token } = await member();
    const none = await call(ctx.app, '/api/user/checkPhoneBinding', {}, { token });
    expect(none.body.data).toEqual({ bound: false, phone: '' });
    await call(ctx.app, '/api/user/updateUserInfo', { phone: '13800001234' }, { token });
    const bound = await call(ctx.app, '/api/user/checkPhoneBinding', {}, { token });
    expect(bound.body.data).toEqual({ bound: true, phone: '138****1234' });
  });

  it("gives the department's address, else the company's", async () => {
    const { company } = await member();
    const department = await buildDepartment(ctx.app.db, company.id);
    await ctx.app.db
      .update(departments)
      .set({ address: '1 Cold Street' })
      .where(eq(departments.id, department.id));
    const person = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, person.id, false, { departmentId: department.id });
    const token = await login(ctx.app, person.account);
    const { body } = await call<Record<string, string>>(ctx.app, '/api/user/getUserAddress', {}, { token });
    expect(body.data).toMatchObject({ departmentAddress: '1 Cold Street', address: '1 Cold Street' });

    const loner = await buildUser(ctx.app.db);
    const lonerToken = await login(ctx.app, loner.account);
    const empty = await call(ctx.app, '/api/user/getUserAddress', {}, { token: lonerToken });
    expect(empty.body.data).toEqual({
      company: '',
      companyAddress: '',
      department: '',
      departmentAddress: '',
      address: '',
    });
  });
});

describe('signature password', () => {
  const ctx = useTestApp();

  it('is set once, then changed only with the current one, and stored hashed', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const check = await call(ctx.app, '/api/user/checkSignPassword', { password: 'abc123' }, { token });
    expect(check.body).toEqual({
      msgCode: 500,
      msgContent: 'Signature password not set, so the feature cannot be used',
      data: null,
    });

    const set = await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'abc123', confirmPassword: 'abc123' },
      { token },
    );
    expect(set.body.msgContent).toBe('Signature password saved');
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, company.admin.id));
    expect(row!.signPasswordHash).toMatch(/^scrypt\$/);
    const right = await call(ctx.app, '/api/user/checkSignPassword', { password: 'abc123' }, { token });
    expect(right.body.data).toBe(true);
    const wrong = await call(ctx.app, '/api/user/checkSignPassword', { password: 'abc124' }, { token });
    expect(wrong.body.msgContent).toBe('The signature password is incorrect');

    const noOld = await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'new456', confirmPassword: 'new456' },
      { token },
    );
    expect(noOld.body.msgContent).toBe(
      'Enter the current signature password, or your login password if you forgot it, to change it',
    );
    const wrongOld = await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'new456', confirmPassword: 'new456', oldPassword: 'nope99' },
      { token, language: 'cn' },
    );
    expect(wrongOld.body.msgContent).toBe('签名密码错误');
    const changed = await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'new456', confirmPassword: 'new456', oldPassword: 'abc123' },
      { token },
    );
    expect(changed.body.msgCode).toBe(200);
    const ok = await call(ctx.app, '/api/user/checkSignPassword', { password: 'new456' }, { token });
    expect(ok.body.data).toBe(true);
    const info = await call<{ signPasswordSet: boolean }>(ctx.app, '/api/user/personalInfo', {}, { token });
    expect(info.body.data.signPasswordSet).toBe(true);
    const actions = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.companyId, company.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['user.setSignPassword', 'user.changeSignPassword']),
    );
  });

  it('a forgotten signature password is replaced with the login password, which is guarded too', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const set = (body: Record<string, string>, language: 'en' | 'cn' = 'en') =>
      call(
        ctx.app,
        '/api/user/setSignPassword',
        { password: 'new456', confirmPassword: 'new456', ...body },
        {
          token,
          language,
        },
      );
    await set({});
    const wrongLogin = await set({ loginPassword: 'NotMine123' }, 'cn');
    expect(wrongLogin.body.msgContent).toBe('登录密码错误');
    const reset = await set({ loginPassword: DEFAULT_PASSWORD });
    expect(reset.body.msgCode).toBe(200);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, company.admin.id));
    // The wrong guess was counted; the successful reset cleared it.
    expect(row!.signFailCount).toBe(0);
    const [entry] = await ctx.app.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user.changeSignPassword')));
    expect(entry!.after).toEqual({ proof: 'loginPassword' });
  });

  it.each([
    [
      { password: 'abc12', confirmPassword: 'abc12' },
      'en',
      'Password must be 6-20 English letters and digits',
    ],
    [{ password: 'abc 123', confirmPassword: 'abc 123' }, 'cn', '密码须为 6-20 位英文字母和数字'],
    [{ password: 'abc123', confirmPassword: 'abc124' }, 'en', 'Both Password Enter Not Match'],
  ] as const)('refuses %j', async (input, language, message) => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call(ctx.app, '/api/user/setSignPassword', input, { token, language });
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
  });
});
