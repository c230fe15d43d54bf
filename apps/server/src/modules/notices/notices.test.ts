import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { createNotice } from './notices.service';
import { NoticeState, notices } from './notices.table';

interface NoticePage {
  list: { id: string; title: string; content: string; state: number; createTime: number; kind: string }[];
  total: number;
  pageNum: number;
  pageSize: number;
}

describe("the caller's notices", () => {
  const ctx = useTestApp();

  async function setup() {
    const company = await buildCompany(ctx.app.db);
    const colleague = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, colleague.id);
    const ids: number[] = [];
    for (let i = 1; i <= 4; i++) {
      ids.push(
        await createNotice(ctx.app.db, {
          companyId: company.id,
          userId: company.admin.id,
          kind: 'reminder',
          title: { en: `Reminder ${i}`, cn: `提醒 ${i}` },
          content: { en: `Calibration ${i} due`, cn: `校准 ${i} 到期` },
        }),
      );
    }
    await ctx.app.db.update(notices).set({ state: NoticeState.Resolved }).where(eq(notices.id, ids[0]!));
    await ctx.app.db.update(notices).set({ state: NoticeState.Invalid }).where(eq(notices.id, ids[1]!));
    const foreign = await createNotice(ctx.app.db, {
      companyId: company.id,
      userId: colleague.id,
      kind: 'reminder',
      title: { en: 'Not yours', cn: '不是你的' },
      content: { en: 'x', cn: 'x' },
    });
    const token = await login(ctx.app, company.admin.account);
    const colleagueToken = await login(ctx.app, colleague.account);
    return { company, ids, foreign, token, colleagueToken };
  }

  it('lists only my own notices, newest first, in my language, filtered by state', async () => {
    const { token, ids } = await setup();
    const all = await call<NoticePage>(
      ctx.app,
      '/api/user/userNoticeList',
      { pageNum: 1, pageSize: 10 },
      { token, language: 'cn' },
    );
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.list.map((n) => n.id)).toEqual([...ids].reverse().map(String));
    expect(all.body.data.list[0]).toMatchObject({
      title: '提醒 4',
      content: '校准 4 到期',
      state: 1,
      kind: 'reminder',
    });
    expect(typeof all.body.data.list[0]!.createTime).toBe('number');

    for (const [state, expected] of [
      [NoticeState.Unread, [ids[3], ids[2]]],
      [NoticeState.Resolved, [ids[0]]],
      [NoticeState.Invalid, [ids[1]]],
    ] as const) {
      const page = await call<NoticePage>(ctx.app, '/api/user/userNoticeList', { state }, { token });
      expect(page.body.data.list.map((n) => n.id)).toEqual(expected.map(String));
    }
    const second = await call<NoticePage>(
      ctx.app,
      '/api/user/userNoticeList',
      { pageNum: 2, pageSize: 3 },
      { token },
    );
    expect(second.body.data).toMatchObject({ total: 4, pageNum: 2, pageSize: 3 });
    expect(second.body.data.list.map((n) => n.id)).toEqual([String(ids[0])]);

    const bad = await call(ctx.app, '/api/user/userNoticeList', { state: 9 }, { token });
    expect(bad.body).toEqual({ msgCode: 500, msgContent: 'State must be at most 4', data: null });
  });

  it('reads one notice, and the badge count follows; resolved ones keep their state', async () => {
    const { token, ids, company } = await setup();
    const read = await call(ctx.app, '/api/user/readNotice', { id: String(ids[3]) }, { token });
    expect(read.body.msgCode).toBe(200);
    const badge = await call<{ count: number }>(ctx.app, '/api/user/newUserNotice', {}, { token });
    expect(badge.body.data.count).toBe(1);
    await call(ctx.app, '/api/user/readNotice', { id: String(ids[0]) }, { token });
    const [resolved] = await ctx.app.db.select().from(notices).where(eq(notices.id, ids[0]!));
    expect(resolved!.state).toBe(NoticeState.Resolved);
    const entries = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'notice.read')));
    expect(entries.map((e) => e.targetId)).toEqual([String(ids[3])]);
  });

  it('reads all my notices at once', async () => {
    const { token, colleagueToken } = await setup();
    const { body } = await call<{ count: number }>(ctx.app, '/api/user/readNoticeAll', {}, { token });
    expect(body.data.count).toBe(2);
    const badge = await call<{ count: number }>(ctx.app, '/api/user/newUserNotice', {}, { token });
    expect(badge.body.data.count).toBe(0);
    // The colleague's notice stays unread.
    const theirs = await call<{ count: number }>(
      ctx.app,
      '/api/user/newUserNotice',
      {},
      { token: colleagueToken },
    );
    expect(theirs.body.data.count).toBe(1);
  });

  it('deletes my notice, audited; someone else\'s id is "not found" and changes nothing', async () => {
    const { token, ids, foreign, company } = await setup();
    const deleted = await call(ctx.app, '/api/user/deleteNotice', { id: String(ids[2]) }, { token });
    expect(deleted.body.msgCode).toBe(200);
    expect(await ctx.app.db.select().from(notices).where(eq(notices.id, ids[2]!))).toHaveLength(0);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'notice.delete')));
    expect(entry).toMatchObject({ targetId: String(ids[2]) });

    for (const path of ['/api/user/deleteNotice', '/api/user/readNotice']) {
      for (const id of [String(foreign), 'abc', '999999999']) {
        const { body } = await call(ctx.app, path, { id }, { token, language: 'cn' });
        expect(body).toEqual({ msgCode: 500, msgContent: '消息不存在', data: null });
      }
    }
    const [untouched] = await ctx.app.db.select().from(notices).where(eq(notices.id, foreign));
    expect(untouched!.state).toBe(NoticeState.Unread);
  });

  it("does not show a company's notices under another company in scope", async () => {
    const { company, token } = await setup();
    const other = await buildCompany(ctx.app.db);
    const [me] = await ctx.app.db.select().from(notices).where(eq(notices.companyId, company.id)).limit(1);
    await addMember(ctx.app.db, other.id, me!.userId);
    const page = await call<NoticePage>(
      ctx.app,
      '/api/user/userNoticeList',
      {},
      { token, companyId: other.id },
    );
    expect(page.body.data.total).toBe(0);
  });
});
