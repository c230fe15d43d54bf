import { readFileSync } from 'node:fs';
import type { ChainVerification, LoginLogEntry, Page } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDevice, buildUser, login } from '../../test/factories';
import { statementsOf } from '../../test/statement-log';
import { recordAudit } from './audit.service';
import { auditHeads, auditLog } from './audit.table';

interface OperationEntry {
  seq: number;
  action: string;
  targetId: string;
  userId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

describe('operation log', () => {
  const ctx = useTestApp();

  it('records who changed what, with old and new values, in the same transaction as the change', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    await call(ctx.app, '/api/device/setRemark', { id: device.id, remark: 'Door seal replaced' }, { token });
    await call(ctx.app, '/api/device/resetDeviceKey', { id: device.id }, { token });
    const { body } = await call<Page<OperationEntry>>(ctx.app, '/api/audit/pageOperationLog', {}, { token });
    expect(body.data.list.map((e) => e.action)).toEqual([
      'device.resetKey',
      'device.setRemark',
      'device.add',
    ]);
    const remark = body.data.list[1]!;
    expect(remark).toMatchObject({
      targetId: device.id,
      userId: String(company.admin.id),
      before: { remark: '' },
      after: { remark: 'Door seal replaced' },
    });
    // The device key never reaches the trail.
    expect(JSON.stringify(body.data)).not.toContain(device.deviceKey);
    // A change that fails leaves no entry: an unknown device id changes nothing and logs nothing.
    await call(ctx.app, '/api/device/setRemark', { id: '999999', remark: 'x' }, { token });
    const again = await call<Page<OperationEntry>>(ctx.app, '/api/audit/pageOperationLog', {}, { token });
    expect(again.body.data.total).toBe(3);
  });

  it('keeps one gap-free chain per company under concurrent changes', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call(ctx.app, '/api/device/setRemark', { id: device.id, remark: `冷链 r${i} "q" \\ é` }, { token }),
      ),
    );
    const { body } = await call<{ ok: boolean; checked: number }>(
      ctx.app,
      '/api/audit/verifyChain',
      {},
      { token },
    );
    expect(body.data).toEqual({ ok: true, checked: 16, problems: [] });
  });

  it('lets a device and its alarm rule be edited at the same time without a deadlock', async () => {
    // On PostgreSQL an edit of a rule took the company's audit lock and then locked its device
    // (the device's state follows its rules), while an edit of the device locked the device and
    // then waited for the audit lock: "deadlock detected" after a second, and one of the two
    // refused. Entries are now appended as their transaction's last step, so a transaction that
    // holds the lock never waits for a row. (The embedded database runs one transaction at a
    // time, so there this passes either way.)
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    // Online: a rule edit rewrites the state of devices in states 1 and 2 only.
    await ctx.app.db.execute(sql`update devices set state = 1 where id = ${Number(device.id)}`);
    const token = await login(ctx.app, company.admin.account);
    const rule = {
      carrier: 'device',
      targetId: device.id,
      alarmType: 'offline',
      channels: [],
      notifierIds: [],
    };
    const created = await call<{ id: string }>(
      ctx.app,
      '/api/deviceAlarmRule/saveAlarmSetting',
      { ...rule, level: 1, repeat: 1 },
      { token },
    );
    expect(created.body.msgCode).toBe(200);
    const edits = Array.from({ length: 12 }, (_, i) => [
      call(
        ctx.app,
        '/api/device/editDevice',
        {
          id: device.id,
          name: `Fridge ${i}`,
          recordInterval: 60,
          uploadInterval: 300,
          alarmVerifyInterval: 60,
          offlineJudgement: 3,
        },
        { token },
      ),
      call(
        ctx.app,
        '/api/deviceAlarmRule/saveAlarmSetting',
        { ...rule, id: created.body.data.id, level: 1 + (i % 3), repeat: 1 },
        { token },
      ),
    ]).flat();
    const answers = await Promise.all(edits);
    expect(answers.map((a) => a.body.msgContent)).toEqual(answers.map(() => 'success'));
    const { body } = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(body.data).toMatchObject({ ok: true, problems: [] });
  });

  it('appends an entry in one statement: the company’s head taken and moved on, the numbered, hashed insert', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const actor = { companyId: company.id, userId: company.admin.id, ip: '10.0.0.1' };
    const entry = {
      action: 'device.setRemark',
      targetType: 'device',
      targetId: 1,
      before: { remark: '' },
      after: { remark: '门封 "A" \\ ok', list: [1.5, null, { z: true, a: 'é' }] },
      reason: '校准',
    };
    for (let i = 0; i < 2; i++) {
      const { statements } = await statementsOf(ctx.app.db, () => recordAudit(ctx.app.db, actor, entry));
      // On either database: the head's row orders concurrent appends on PostgreSQL (no lock first).
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/insert into audit_heads[\s\S]*insert into audit_log/);
    }
    const [head] = await ctx.app.db.select().from(auditHeads).where(eq(auditHeads.companyId, company.id));
    const entries = await ctx.app.db
      .select({ seq: auditLog.seq, hash: auditLog.hash, prevHash: auditLog.prevHash })
      .from(auditLog)
      .where(eq(auditLog.companyId, company.id))
      .orderBy(auditLog.seq);
    expect(entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(head).toEqual({
      companyId: company.id,
      seq: 2,
      prevHash: entries[0]!.hash,
      hash: entries[1]!.hash,
    });
    const { body } = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(body.data).toMatchObject({ ok: true, checked: 2, problems: [] });
  });

  it('sets each company’s head from its chain as the migration that added heads does, and goes on from a head behind or missing', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    for (const remark of ['a', 'b'])
      await call(ctx.app, '/api/device/setRemark', { id: device.id, remark }, { token });
    // The chains as they stood before heads: entries, no heads (every company's, as the migration
    // found them; it sets them all back).
    await ctx.app.db.delete(auditHeads);
    const migration = readFileSync(new URL('../../../drizzle/0045_audit_heads.sql', import.meta.url), 'utf8');
    const fill = migration.split('--> statement-breakpoint')[1]!;
    await ctx.app.db.execute(sql.raw(fill));
    await call(ctx.app, '/api/device/setRemark', { id: device.id, remark: 'c' }, { token });
    // A head behind its chain, as an instance of the version before heads leaves it while it
    // appends during a rolling upgrade: the next append goes on from the chain's last entry.
    await ctx.app.db
      .update(auditHeads)
      .set({ seq: sql`${auditHeads.seq} - 1`, hash: sql`${auditHeads.prevHash}` })
      .where(eq(auditHeads.companyId, company.id));
    await call(ctx.app, '/api/device/setRemark', { id: device.id, remark: 'd' }, { token });
    // And a head missing altogether.
    await ctx.app.db.delete(auditHeads).where(eq(auditHeads.companyId, company.id));
    await call(ctx.app, '/api/device/setRemark', { id: device.id, remark: 'e' }, { token });
    const seqs = await ctx.app.db
      .select({ seq: auditLog.seq })
      .from(auditLog)
      .where(eq(auditLog.companyId, company.id))
      .orderBy(auditLog.seq);
    expect(seqs.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    const [head] = await ctx.app.db.select().from(auditHeads).where(eq(auditHeads.companyId, company.id));
    expect(head?.seq).toBe(6);
    const { body } = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(body.data).toMatchObject({ ok: true, checked: 6, problems: [] });
  });

  it('refuses to change or delete an entry', async () => {
    const company = await buildCompany(ctx.app.db);
    await buildDevice(ctx.app.db, company.id);
    const refusal = (error: unknown) => String((error as { cause?: Error }).cause?.message ?? error);
    const update = await ctx.app.db
      .execute(sql`update audit_log set reason = 'x' where company_id = ${company.id}`)
      .catch(refusal);
    expect(update).toMatch(/audit_log is append-only/);
    const remove = await ctx.app.db
      .execute(sql`delete from audit_log where company_id = ${company.id}`)
      .catch(refusal);
    expect(remove).toMatch(/audit_log is append-only/);
  });

  it('points at an edited entry and at missing entries when someone bypasses the guard', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    for (const remark of ['a', 'b', 'c', 'd', 'e', 'f'])
      await call(ctx.app, '/api/device/setRemark', { id: device.id, remark }, { token });
    // A database superuser could switch the trigger off; the chain still tells.
    await ctx.app.db.execute(sql`alter table audit_log disable trigger audit_log_no_change`);
    try {
      await ctx.app.db.execute(
        sql`update audit_log set after = '{"remark":"forged"}' where company_id = ${company.id} and seq = 3`,
      );
      await ctx.app.db.execute(sql`delete from audit_log where company_id = ${company.id} and seq = 5`);
      // Rewriting an entry with a fresh, valid hash still breaks the link from the next one.
      const [row] = (
        (await ctx.app.db.execute(
          sql`select * from audit_log where company_id = ${company.id} and seq = 6`,
        )) as unknown as {
          rows: Record<string, unknown>[];
        }
      ).rows;
      const { entryHash } = await import('./audit-chain');
      const forged = { ...(row as object), after: { remark: 'forged again' } } as Record<string, unknown>;
      const newHash = entryHash(String(forged.prev_hash), {
        companyId: Number(forged.company_id),
        seq: 6,
        userId: Number(forged.user_id),
        action: String(forged.action),
        targetType: String(forged.target_type),
        targetId: String(forged.target_id),
        before: forged.before,
        after: forged.after,
        reason: String(forged.reason),
        ip: String(forged.ip),
        createdAt: new Date(String(forged.created_at)).getTime(),
      });
      await ctx.app.db.execute(
        sql`update audit_log set after = '{"remark":"forged again"}', hash = ${newHash} where company_id = ${company.id} and seq = 6`,
      );
    } finally {
      await ctx.app.db.execute(sql`alter table audit_log enable trigger audit_log_no_change`);
    }
    const { body } = await call<ChainVerification>(
      ctx.app,
      '/api/audit/verifyChain',
      {},
      { token, language: 'cn' },
    );
    expect(body.data.ok).toBe(false);
    expect(body.data.problems.map((p) => [p.seq, p.kind])).toEqual([
      [3, 'edited'],
      [6, 'missing'],
      [7, 'relinked'],
    ]);
    // Each problem says when its entry was written; a gap says which positions are gone.
    expect(body.data.problems[1]).toMatchObject({ missingFrom: 5, missingTo: 5 });
    for (const problem of body.data.problems) expect(problem.time).toBeGreaterThan(Date.now() - 60_000);
  });

  it('finds entries deleted from the end of the chain, which leave no gap before a later one', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    for (const remark of ['a', 'b', 'c'])
      await call(ctx.app, '/api/device/setRemark', { id: device.id, remark }, { token });
    // Entries 1 (the device's addition) to 4; a superuser removes the last two.
    await ctx.app.db.execute(sql`alter table audit_log disable trigger audit_log_no_change`);
    try {
      await ctx.app.db.execute(sql`delete from audit_log where company_id = ${company.id} and seq >= 3`);
    } finally {
      await ctx.app.db.execute(sql`alter table audit_log enable trigger audit_log_no_change`);
    }
    const { body } = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(body.data).toMatchObject({ ok: false, checked: 2 });
    expect(body.data.problems).toEqual([
      expect.objectContaining({ seq: 4, kind: 'missing', missingFrom: 3, missingTo: 4 }),
    ]);
    expect(body.data.problems[0]!.time).toBeGreaterThan(Date.now() - 60_000);
  });

  it('shows a company only its own trail, and only to holders of audit:view', async () => {
    const mine = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    await buildDevice(ctx.app.db, other.id);
    const token = await login(ctx.app, mine.admin.account);
    const { body } = await call<Page<OperationEntry>>(ctx.app, '/api/audit/pageOperationLog', {}, { token });
    expect(body.data.total).toBe(0);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, mine.id, member.id);
    const memberToken = await login(ctx.app, member.account);
    for (const url of [
      '/api/audit/pageOperationLog',
      '/api/audit/verifyChain',
      '/api/userLoginLog/auditPageUserLog',
    ]) {
      const denied = await call(ctx.app, url, {}, { token: memberToken });
      expect(denied.body.msgContent, url).toBe('No permission for this service or operation');
    }
  });
});

describe('login log', () => {
  const ctx = useTestApp();

  it('records every attempt, successful or not, for the user and for the company auditors', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id);
    await call(ctx.app, '/api/doLogin', { account: member.account, password: 'Wrong1234' });
    const memberToken = await login(ctx.app, member.account);
    await call(ctx.app, '/api/doLogin', { account: 'stranger@example.com', password: 'Wrong1234' });

    const own = await call<Page<LoginLogEntry>>(
      ctx.app,
      '/api/userLoginLog/pageUserLog',
      {},
      { token: memberToken },
    );
    expect(own.body.data.list.map((e) => [e.status, e.method, e.reason])).toEqual([
      [1, 'password', ''],
      [0, 'password', 'wrong password'],
    ]);
    expect(own.body.data.list[0]).toMatchObject({
      account: member.account,
      platform: 1,
      userName: 'Test User',
    });

    const adminToken = await login(ctx.app, company.admin.account);
    const all = await call<Page<LoginLogEntry>>(
      ctx.app,
      '/api/userLoginLog/auditPageUserLog',
      {},
      { token: adminToken },
    );
    // The member's two attempts and the admin's login; the stranger belongs to no company.
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.list.some((e) => e.account === 'stranger@example.com')).toBe(false);
    const filtered = await call<Page<LoginLogEntry>>(
      ctx.app,
      '/api/userLoginLog/auditPageUserLog',
      { account: member.account.slice(0, 10) },
      { token: adminToken },
    );
    expect(filtered.body.data.total).toBe(2);
  });
});
