import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildUser, login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { auditLog } from '../audit/audit.table';
import { createMailer } from '../notify/mailer';
import { sessions, users } from '../users/users.table';
import { sweepInactiveAccounts } from './account-cancellation';
import { inactivityWarnings } from './login-security.table';

const sink = await startSmtpSink();
const mailer = createMailer(sink.url, 'ColdChain <noreply@example.com>');
afterAll(async () => {
  mailer?.close();
  await sink.close();
});
const DAY = 86_400_000;

describe('account cancellation after 12 months without login', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const idleFor = (userId: number, days: number) =>
    ctx.app.db
      .update(users)
      .set({ lastLoginAt: new Date(Date.now() - days * DAY) })
      .where(eq(users.id, userId));

  it('warns by e-mail 30 days before, then disables the account and ends its sessions, keeping the row', async () => {
    const company = await buildCompany(ctx.app.db);
    const user = await buildUser(ctx.app.db, { name: 'Idle Person' });
    await addMember(ctx.app.db, company.id, user.id);
    const token = await login(ctx.app, user.account);
    const active = await buildUser(ctx.app.db);
    await login(ctx.app, active.account);
    await idleFor(user.id, 340);

    const mail = sink.nextMail();
    const first = await sweepInactiveAccounts(ctx.app.db, mailer);
    expect(first.warned).toContain(user.id);
    expect(first.warned).not.toContain(active.id);
    expect(first.cancelled).not.toContain(user.id);
    const warning = await mail;
    expect(warning.to).toEqual([user.account]);
    expect(warning.text).toContain('will be cancelled');
    expect(warning.text).toContain('您的账号将被注销');
    // Warned once: the next sweep sends nothing more.
    expect((await sweepInactiveAccounts(ctx.app.db, mailer)).warned).not.toContain(user.id);

    // 30 days later (and 12 months idle) the account is cancelled.
    await ctx.app.db
      .update(inactivityWarnings)
      .set({ warnedAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(inactivityWarnings.userId, user.id));
    await idleFor(user.id, 371);
    const second = await sweepInactiveAccounts(ctx.app.db, mailer);
    expect(second.cancelled).toEqual([user.id]);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ disabled: true, name: 'Idle Person' });
    expect(await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await call(ctx.app, '/api/user/userInfo', {}, { token })).body.msgCode).toBe(311);
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user.cancelInactive')));
    expect(audit.map((a) => a.targetId)).toEqual([String(user.id)]);

    const refused = await call(ctx.app, '/api/doLogin', {
      account: user.account,
      password: user.password,
      type: 1,
    });
    expect(refused.body.msgContent).toBe(
      'This account was cancelled after 12 months without login; please contact support',
    );
  });

  it('a login after the warning keeps the account', async () => {
    const user = await buildUser(ctx.app.db);
    await login(ctx.app, user.account);
    await idleFor(user.id, 340);
    const mail = sink.nextMail();
    expect((await sweepInactiveAccounts(ctx.app.db, mailer)).warned).toContain(user.id);
    await mail;
    await ctx.app.db
      .update(inactivityWarnings)
      .set({ warnedAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(inactivityWarnings.userId, user.id));
    await login(ctx.app, user.account);
    const result = await sweepInactiveAccounts(ctx.app.db, mailer);
    expect(result.cancelled).not.toContain(user.id);
    expect(result.warned).not.toContain(user.id);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.disabled).toBe(false);
  });

  it('never cancels without a warning first, even when idle for over a year', async () => {
    const user = await buildUser(ctx.app.db);
    await idleFor(user.id, 500);
    const mail = sink.nextMail();
    const result = await sweepInactiveAccounts(ctx.app.db, mailer);
    expect(result.warned).toContain(user.id);
    expect(result.cancelled).not.toContain(user.id);
    await mail;
  });
});
