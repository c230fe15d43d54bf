import type { ChainVerification } from '@coldchain/contract';
import { ResolveState } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { alarmRecords } from './alarms.table';

/** An alarm of `deviceId` in `state`, written as the engine would have left it. */
async function alarmIn(
  db: Db,
  companyId: number,
  device: { id: string; sensors: { id: number }[] },
  state: number,
) {
  const [alarm] = await db
    .insert(alarmRecords)
    .values({
      companyId,
      deviceId: Number(device.id),
      sensorId: device.sensors[0]!.id,
      alarmType: 'overLimit',
      level: 1,
      alarmTime: new Date(),
      excursionStart: new Date(),
      dedupeKey: `resolve-${state}-${Math.random()}`,
      content: { en: 'Too warm', cn: '温度过高' },
      lastValue: 9,
      resolveState: state,
      ...(state === ResolveState.Normalized ? { endTime: new Date() } : {}),
    })
    .returning();
  return String(alarm!.id);
}

const RESOLUTION = { resolveType: 'handled', cause: 'Door open', action: 'Closed it' };

/**
 * A resolution is one statement: the update if the alarm's state allows it, its audit entry
 * with the state it was resolved from, and the answer (alarms.service.ts `resolutionSql`).
 */
describe('resolving an alarm in one statement', () => {
  const ctx = useTestApp();

  it('resolves from each open state, recording the state it left, and refuses expired and resolved ones', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    for (const state of [ResolveState.Pending, ResolveState.InProgress, ResolveState.Normalized]) {
      const id = await alarmIn(ctx.app.db, company.id, device, state);
      const { body } = await call(ctx.app, '/api/alarm/resolveAlarm', { id, ...RESOLUTION }, { token });
      expect(body.data, `from ${state}`).toMatchObject({
        id,
        resolveState: ResolveState.Resolved,
        cause: 'Door open',
      });
      const [entry] = await ctx.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'alarm.resolve'), eq(auditLog.targetId, id)));
      expect(entry?.before, `from ${state}`).toEqual({ resolveState: state });
    }
    for (const [state, en, cn] of [
      [
        ResolveState.Expired,
        'This alarm has expired and can no longer be resolved',
        '该报警已过期，无法处理',
      ],
      [ResolveState.Resolved, 'This alarm has already been resolved', '该报警已处理，无需重复处理'],
    ] as const) {
      const id = await alarmIn(ctx.app.db, company.id, device, state);
      const english = await call(ctx.app, '/api/alarm/resolveAlarm', { id, ...RESOLUTION }, { token });
      expect(english.body).toMatchObject({ msgCode: 500, msgContent: en });
      const chinese = await call(
        ctx.app,
        '/api/alarm/resolveAlarm',
        { id, ...RESOLUTION },
        { token, language: 'cn' },
      );
      expect(chinese.body).toMatchObject({ msgCode: 500, msgContent: cn });
      const [row] = await ctx.app.db
        .select()
        .from(alarmRecords)
        .where(eq(alarmRecords.id, Number(id)));
      expect(row!.resolveState).toBe(state);
      expect(row!.cause).toBeNull();
    }
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    // One addition, three resolutions; the refusals left nothing.
    expect(chain.body.data).toEqual({ ok: true, checked: 4, problems: [] });
  });

  it('lets one of several simultaneous resolutions through and tells the others it is done', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const id = await alarmIn(ctx.app.db, company.id, device, ResolveState.Pending);
    const others = await Promise.all(
      Array.from({ length: 3 }, () => alarmIn(ctx.app.db, company.id, device, ResolveState.Pending)),
    );
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        call(ctx.app, '/api/alarm/resolveAlarm', { id, ...RESOLUTION, cause: `try ${i}` }, { token }),
      ),
      ...others.map((other) =>
        call(ctx.app, '/api/alarm/resolveAlarm', { id: other, ...RESOLUTION }, { token }),
      ),
    ]);
    const mine = answers.slice(0, 6).map((a) => a.body.msgContent);
    expect(mine.filter((m) => m === 'success')).toHaveLength(1);
    expect(mine.filter((m) => m === 'This alarm has already been resolved')).toHaveLength(5);
    expect(answers.slice(6).map((a) => a.body.msgContent)).toEqual(['success', 'success', 'success']);
    const entries = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarm.resolve'), eq(auditLog.targetId, id)));
    expect(entries).toHaveLength(1);
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(chain.body.data).toEqual({ ok: true, checked: 5, problems: [] });
  });

  it('records the state an alarm was resolved from when another session changed it during the resolution', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const taken = await alarmIn(ctx.app.db, company.id, device, ResolveState.Pending);
    const expiring = await alarmIn(ctx.app.db, company.id, device, ResolveState.Pending);
    /**
     * The alarm's row is changed to `state` by a transaction that holds it while the resolution
     * starts; on PostgreSQL the resolution's statement begins (its snapshot still showing the
     * alarm pending) and waits for the row, on the embedded database it waits for the session.
     */
    const resolvedWhileChanged = (id: string, state: number) =>
      ctx.app.db.transaction(async (tx) => {
        await tx
          .update(alarmRecords)
          .set({ resolveState: state })
          .where(eq(alarmRecords.id, Number(id)));
        const resolution = call(ctx.app, '/api/alarm/resolveAlarm', { id, ...RESOLUTION }, { token });
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { resolution };
      });
    const { resolution: afterTaken } = await resolvedWhileChanged(taken, ResolveState.InProgress);
    expect((await afterTaken).body.msgContent).toBe('success');
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarm.resolve'), eq(auditLog.targetId, taken)));
    expect(entry?.before).toEqual({ resolveState: ResolveState.InProgress });
    const { resolution: afterExpiry } = await resolvedWhileChanged(expiring, ResolveState.Expired);
    expect((await afterExpiry).body.msgContent).toBe('This alarm has expired and can no longer be resolved');
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(chain.body.data).toEqual({ ok: true, checked: 2, problems: [] });
  });

  it('asks for the signature first while the company asks one, telling nothing of the alarm to a wrong password', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'abc123', confirmPassword: 'abc123' },
      { token },
    );
    await call(ctx.app, '/api/company/setAuditSignature', { enabled: true }, { token });
    const id = await alarmIn(ctx.app.db, company.id, device, ResolveState.Pending);
    const resolve = (alarm: string, extra: Record<string, unknown>, language: 'en' | 'cn' = 'en') =>
      call(ctx.app, '/api/alarm/resolveAlarm', { id: alarm, ...RESOLUTION, ...extra }, { token, language });
    // The same answer for the alarm and for one that is not there.
    for (const alarm of [id, '987654321']) {
      expect((await resolve(alarm, {})).body.msgContent).toBe('Enter your signature password to continue');
      expect((await resolve(alarm, { signPassword: 'wrong1' }, 'cn')).body.msgContent).toBe('签名密码错误');
    }
    const [still] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.id, Number(id)));
    expect(still!.resolveState).toBe(ResolveState.Pending);
    const signed = await resolve(id, { signPassword: 'abc123' });
    expect(signed.body.data).toMatchObject({ id, resolveState: ResolveState.Resolved });
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarm.resolve'), eq(auditLog.targetId, id)));
    expect(entry?.before).toEqual({ resolveState: ResolveState.Pending });
    expect(entry?.after).toMatchObject({
      signature: { meaning: 'alarmResolution', signedBy: expect.any(String) },
    });
    // Switched off again, a resolution needs no password, and a sent one is ignored.
    await call(ctx.app, '/api/company/setAuditSignature', { enabled: false }, { token });
    const next = await alarmIn(ctx.app.db, company.id, device, ResolveState.Pending);
    expect((await resolve(next, { signPassword: 'wrong1' })).body.data).toMatchObject({
      resolveState: ResolveState.Resolved,
    });
  });

  it('resolves for a department member only the alarms of devices they see', async () => {
    const company = await buildCompany(ctx.app.db);
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    const lab = await buildDepartment(ctx.app.db, company.id, { name: 'Lab' });
    const ours = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const theirs = await buildDevice(ctx.app.db, company.id, { departmentId: lab.id });
    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, ['alarm:view', 'alarm:resolve']);
    const nurse = await buildUser(ctx.app.db, { name: 'Night Nurse' });
    await addMember(ctx.app.db, company.id, nurse.id, false, { departmentId: pharmacy.id, roleId: role.id });
    const token = await login(ctx.app, nurse.account);
    const visible = await alarmIn(ctx.app.db, company.id, ours, ResolveState.Pending);
    const hidden = await alarmIn(ctx.app.db, company.id, theirs, ResolveState.Pending);

    const refused = await call(ctx.app, '/api/alarm/resolveAlarm', { id: hidden, ...RESOLUTION }, { token });
    expect(refused.body).toMatchObject({ msgCode: 500, msgContent: 'The alarm does not exist' });
    const [untouched] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.id, Number(hidden)));
    expect(untouched!.resolveState).toBe(ResolveState.Pending);

    const resolved = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: visible, ...RESOLUTION },
      { token },
    );
    expect(resolved.body.data).toMatchObject({
      id: visible,
      resolveState: ResolveState.Resolved,
      resolverId: String(nurse.id),
      resolverName: 'Night Nurse',
    });
    const entries = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'alarm.resolve'));
    expect(entries.filter((e) => e.companyId === company.id).map((e) => e.targetId)).toEqual([visible]);
  });
});
