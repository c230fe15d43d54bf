import { SIGN_LOCK_AFTER_FAILURES } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, DEFAULT_PASSWORD, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { users } from '../users/users.table';

describe('signing lock against guessing', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  async function signer() {
    const c = await buildCompany(ctx.app.db);
    const as = { token: await login(ctx.app, c.admin.account), companyId: c.id };
    await call(ctx.app, '/api/user/setSignPassword', { password: 'abc123', confirmPassword: 'abc123' }, as);
    const check = async (password: string, language: 'en' | 'cn' = 'en') =>
      (await call(ctx.app, '/api/user/checkSignPassword', { password }, { ...as, language })).body;
    return { ...c, as, check };
  }

  it('locks signing after five wrong passwords in a row, and writes the lock to the trail', async () => {
    const s = await signer();
    for (let i = 1; i < SIGN_LOCK_AFTER_FAILURES; i++) {
      expect((await s.check('wrong1')).msgContent).toBe('The signature password is incorrect');
    }
    expect((await s.check('wrong1')).msgContent).toBe(
      'Too many incorrect signature passwords: signing is locked, try again in 15 minutes',
    );
    // Locked: even the right password is refused, here and when changing it.
    expect((await s.check('abc123', 'cn')).msgContent).toBe(
      '签名密码错误次数过多，签名已锁定，请 15 分钟后再试',
    );
    const change = await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'new456', confirmPassword: 'new456', oldPassword: 'abc123' },
      s.as,
    );
    expect(change.body.msgContent).toContain('signing is locked');
    const locks = await ctx.app.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, s.id), eq(auditLog.action, 'user.signatureLocked')));
    expect(locks).toHaveLength(1);
    expect(locks[0]!.after).toMatchObject({ failures: SIGN_LOCK_AFTER_FAILURES });

    // Once the lock is over the right password works again and clears the count.
    await ctx.app.db
      .update(users)
      .set({ signLockedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, s.admin.id));
    expect((await s.check('abc123')).data).toBe(true);
  });

  it('counts only a run of failures: a right password in between starts the count again', async () => {
    const s = await signer();
    for (let i = 1; i < SIGN_LOCK_AFTER_FAILURES; i++) await s.check('wrong1');
    expect((await s.check('abc123')).data).toBe(true);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, s.admin.id));
    expect(row!.signFailCount).toBe(0);
    expect((await s.check('wrong1')).msgContent).toBe('The signature password is incorrect');
  });

  it('forgets failures older than an hour', async () => {
    const s = await signer();
    for (let i = 1; i < SIGN_LOCK_AFTER_FAILURES; i++) await s.check('wrong1');
    await ctx.app.db
      .update(users)
      .set({ signFailedAt: new Date(Date.now() - 2 * 3_600_000) })
      .where(eq(users.id, s.admin.id));
    expect((await s.check('wrong1')).msgContent).toBe('The signature password is incorrect');
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, s.admin.id));
    expect(row!.signFailCount).toBe(1);
  });

  it('guards the signed action itself: wrong passwords on an export count and lock too', async () => {
    const s = await signer();
    await call(ctx.app, '/api/company/setAuditSignature', { enabled: true }, s.as);
    const exportLog = (signPassword: string) =>
      call(
        ctx.app,
        '/api/audit/exportOperationLog',
        { startTime: Date.UTC(2026, 0, 1), endTime: Date.UTC(2026, 0, 2), format: 'csv', signPassword },
        s.as,
      );
    for (let i = 1; i < SIGN_LOCK_AFTER_FAILURES; i++) await exportLog('wrong1');
    expect((await exportLog('wrong1')).body.msgContent).toContain('signing is locked');
    expect((await exportLog('abc123')).body.msgContent).toContain('signing is locked');
    // The login password is not affected: signing and logging in are locked apart.
    expect(await login(ctx.app, s.admin.account, DEFAULT_PASSWORD)).toMatch(/.+/);
  });
});
