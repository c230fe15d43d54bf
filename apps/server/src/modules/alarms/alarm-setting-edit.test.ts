import type { AlarmSettingView, ChainVerification } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import type { Auth } from '../../plugins/auth';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildDepartment, buildDevice, buildRole, buildUser, login } from '../../test/factories';
import { everyStatementOf } from '../../test/statement-log';
import { auditLog } from '../audit/audit.table';
import { devices } from '../devices/devices.table';
import { visibleDevices } from '../org/access';
import { settingToEditAhead, tryQuickEdit } from './alarm-setting-quick-edit';
import { presentSetting } from './alarm-settings.service';
import { alarmFixture, postReadings } from './alarm-test-support';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/** An engine state row of `settingId`, active or not, as the engine leaves one mid-excursion. */
async function engineState(
  db: Db,
  f: Awaited<ReturnType<typeof alarmFixture>>,
  settingId: number,
  active: boolean,
) {
  await db.insert(alarmState).values({
    settingId,
    sensorId: f.sensor.id,
    companyId: f.company.id,
    deviceId: Number(f.device.id),
    state: { phase: active ? 'delaying' : 'normal' } as never,
    active,
  });
}

/** The rule's edit entries in the audit trail, oldest first. */
const editEntries = (db: Db, settingId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'alarmSetting.edit'), eq(auditLog.targetId, settingId)))
    .orderBy(auditLog.seq);

const deviceState = async (db: Db, id: string) =>
  (
    await db
      .select({ state: devices.state })
      .from(devices)
      .where(eq(devices.id, Number(id)))
  )[0]!.state;

/**
 * A rule edit with no alarm of the rule open is one statement (alarm-setting-quick-edit.ts,
 * `quickEditStatement`); with one open it is the transaction that ends it. Both must leave the
 * same things behind: the rule, its audit entry, its engine states gone, its device's state.
 */
describe('a rule edit in one statement', () => {
  const ctx = useTestApp();

  it('records the rule as stored, drops its states and sets its device’s state from the others', async () => {
    const f = await alarmFixture(ctx.app);
    const edited = await f.save({});
    const other = await f.save({ alarmType: 'overLimit', min: -5, max: 30, level: 2 });
    const id = Number(edited.body.data.id);
    await ctx.app.db
      .update(devices)
      .set({ state: 2 })
      .where(eq(devices.id, Number(f.device.id)));
    await engineState(ctx.app.db, f, id, true);

    const saved = await f.save({
      id: String(id),
      max: 7.5,
      level: 3,
      weekdays: [5, 1, 3],
      channels: ['email'],
    });
    expect(saved.body).toMatchObject({ msgContent: 'success', data: { id: String(id) } });
    // Its only active state is gone, the other rule has none: the device is back to normal.
    expect(await ctx.app.db.select().from(alarmState).where(eq(alarmState.settingId, id))).toEqual([]);
    expect(await deviceState(ctx.app.db, f.device.id)).toBe(1);

    const [stored] = await ctx.app.db.select().from(alarmSettings).where(eq(alarmSettings.id, id));
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarmSetting.edit'), eq(auditLog.targetId, String(id))));
    // The entry's "after" is the stored row as the console shows it, and its "before" the rule saved first.
    expect(entry!.after).toEqual(JSON.parse(JSON.stringify(presentSetting(stored!))));
    expect(entry!.after).toMatchObject({ max: 7.5, level: 3, weekdays: [1, 3, 5], channels: ['email'] });
    expect(entry!.before).toMatchObject({ max: 8, level: 1, channels: ['email', 'sms'] });

    // Another rule's active state keeps the device alarming after an edit of this one.
    await engineState(ctx.app.db, f, Number(other.body.data.id), true);
    await ctx.app.db
      .update(devices)
      .set({ state: 2 })
      .where(eq(devices.id, Number(f.device.id)));
    await engineState(ctx.app.db, f, id, true);
    expect((await f.save({ id: String(id), max: 7 })).body.msgContent).toBe('success');
    expect(await deviceState(ctx.app.db, f.device.id)).toBe(2);
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, f.as);
    expect(chain.body.data).toMatchObject({ ok: true, problems: [] });
  });

  it('ends an open alarm of the rule the long way, and edits it as the quick way would', async () => {
    const f = await alarmFixture(ctx.app);
    const created = await f.save({});
    await postReadings(ctx.app, f.device, [{ ts: Date.now(), v: 9.4 }]);
    await ctx.app.alarms.idle();
    const [open] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.companyId, f.company.id));
    expect(open?.endTime).toBeNull();

    expect((await f.save({ id: created.body.data.id, max: 12 })).body.msgContent).toBe('success');
    const [ended] = await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.id, open!.id));
    expect(ended).toMatchObject({ endReason: 'ruleEdited' });
    expect(ended!.endTime).not.toBeNull();
    const actions = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.companyId, f.company.id))
      .orderBy(auditLog.seq);
    expect(actions.map((a) => a.action)).toEqual([
      'device.add',
      'alarmSetting.create',
      'alarm.endByRule',
      'alarmSetting.edit',
    ]);
    const list = await call<{ list: AlarmSettingView[] }>(
      ctx.app,
      '/api/deviceAlarmRule/alarmList',
      { deviceId: f.device.id, pageNum: 1, pageSize: 10 },
      f.as,
    );
    expect(list.body.data.list.find((s) => s.id === created.body.data.id)).toMatchObject({ max: 12 });
  });

  it('keeps every edit of a rule saved at once, in one gap-free chain', async () => {
    const f = await alarmFixture(ctx.app);
    const created = await f.save({});
    const { result: answers, statements } = await everyStatementOf(ctx.app.db, () =>
      Promise.all(Array.from({ length: 10 }, (_, i) => f.save({ id: created.body.data.id, max: 10 + i }))),
    );
    expect(answers.map((a) => a.body.msgContent)).toEqual(answers.map(() => 'success'));
    // Each is the quick edit's one statement (on the embedded database sent from the row the one
    // before writes); none took the long way, whose update is a statement of its own.
    expect(statements.filter((s) => s.includes('with changed as (update "alarm_settings"'))).toHaveLength(10);
    expect(statements.filter((s) => /^\s*update "alarm_settings"/.test(s))).toHaveLength(0);
    const edits = await editEntries(ctx.app.db, created.body.data.id);
    expect(edits).toHaveLength(10);
    // Each edit's "before" is the rule the previous one left: none was lost or based on a stale read.
    for (let i = 1; i < edits.length; i++)
      expect((edits[i]!.before as { max: number }).max).toBe((edits[i - 1]!.after as { max: number }).max);
    const [stored] = await ctx.app.db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(created.body.data.id)));
    expect(stored!.max).toBe((edits.at(-1)!.after as { max: number }).max);
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, f.as);
    expect(chain.body.data).toMatchObject({ ok: true, problems: [] });
  });

  it('writes nothing from a stale read of the rule, so the edit goes the long way', async () => {
    const f = await alarmFixture(ctx.app);
    const db = ctx.app.db;
    const id = (await f.save({})).body.data.id;
    const scope = eq(devices.companyId, f.company.id);
    const actor = { companyId: f.company.id, userId: f.company.admin.id, ip: '127.0.0.1' };
    // Read ahead (the embedded database), then changed by another edit before this one writes.
    const read = await settingToEditAhead(db, f.company.id, scope, id);
    expect((await f.save({ id, max: 11 })).body.msgContent).toBe('success');
    const [row] = await db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(id)));
    const { id: _id, createdAt: _created, updatedAt: _updated, ...values } = row!;

    const edit = { ...values, max: 12 } as Parameters<typeof tryQuickEdit>[4];
    const answer = await tryQuickEdit(db, actor, scope, id, edit, read);
    const edits = await editEntries(ctx.app.db, id);
    const [stored] = await db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(id)));
    if (read) {
      // The rule read is changed: nothing written, nothing audited; the caller saves it the long way.
      expect(read.row.max).toBe(8);
      expect(answer).toBeNull();
      expect(stored!.max).toBe(11);
      expect(edits).toHaveLength(1);
    } else {
      // On PostgreSQL the edit reads the rule itself, locked: its "before" is the edit just saved.
      expect(answer).toEqual({ id });
      expect(stored!.max).toBe(12);
      expect(edits.map((e) => (e.before as { max: number }).max)).toEqual([8, 11]);
    }
  });

  it('edits from the row its last edit wrote, and the long way once the rule was changed otherwise', async () => {
    const f = await alarmFixture(ctx.app);
    const db = ctx.app.db;
    const id = (await f.save({})).body.data.id;
    expect((await f.save({ id, max: 9 })).body.msgContent).toBe('success');
    // Changed by another writer (as removing a notifier from the company does), not by an edit.
    await db
      .update(alarmSettings)
      .set({ max: 20 })
      .where(eq(alarmSettings.id, Number(id)));
    expect((await f.save({ id, max: 10 })).body.msgContent).toBe('success');
    expect((await f.save({ id, max: 11 })).body.msgContent).toBe('success');

    const edits = await editEntries(ctx.app.db, id);
    // Each "before" is the rule as it was stored: the other writer's 20 included.
    expect(edits.map((e) => [(e.before as { max: number }).max, (e.after as { max: number }).max])).toEqual([
      [8, 9],
      [20, 10],
      [10, 11],
    ]);
    const [stored] = await db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(id)));
    expect(edits.at(-1)!.after).toEqual(JSON.parse(JSON.stringify(presentSetting(stored!))));
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, f.as);
    expect(chain.body.data).toMatchObject({ ok: true, problems: [] });
  });

  it('keeps a department member to the rules of the devices they see, an edit remembered or not', async () => {
    const f = await alarmFixture(ctx.app);
    const db = ctx.app.db;
    const id = (await f.save({})).body.data.id;
    // Edited by the administrator the quick way: its row is remembered for the next edit.
    expect((await f.save({ id, max: 9 })).body.msgContent).toBe('success');
    const ward = await buildDepartment(db, f.company.id, { name: 'Ward 3' });
    const theirs = await buildDevice(db, f.company.id, { departmentId: ward.id });
    const role = await buildRole(db, f.company.id, ward.id, ['alarm:view', 'alarm:edit']);
    const member = await buildUser(db);
    await addMember(db, f.company.id, member.id, false, { departmentId: ward.id, roleId: role.id });
    const as = { token: await login(ctx.app, member.account), companyId: f.company.id };
    const rule = {
      carrier: 'sensor',
      targetId: String(theirs.sensors[0]!.id),
      level: 1,
      alarmType: 'overLimit',
      max: 30,
      repeat: 1,
      channels: ['email'],
      notifierIds: [],
    };

    // The administrator's fridge is not in their department: its rule does not exist for them,
    // even moved onto a sensor they see.
    for (const language of ['en', 'cn'] as const) {
      const edit = await call(
        ctx.app,
        '/api/deviceAlarmRule/saveAlarmSetting',
        { ...rule, id },
        { ...as, language },
      );
      expect(edit.body).toMatchObject({
        msgCode: 500,
        msgContent: language === 'en' ? 'The alarm setting does not exist' : '报警设置不存在',
      });
    }
    const [stored] = await db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(id)));
    expect(stored).toMatchObject({ max: 9, deviceId: Number(f.device.id) });

    // Their own rule they edit, twice in a row.
    const created = await call<{ id: string }>(ctx.app, '/api/deviceAlarmRule/saveAlarmSetting', rule, as);
    for (const max of [31, 32]) {
      const edit = await call(
        ctx.app,
        '/api/deviceAlarmRule/saveAlarmSetting',
        { ...rule, id: created.body.data.id, max },
        as,
      );
      expect(edit.body.msgContent).toBe('success');
    }
    const edits = await editEntries(ctx.app.db, created.body.data.id);
    expect(edits.map((e) => (e.before as { max: number }).max)).toEqual([30, 31]);
  });

  it('edits a rule the quick way whatever its numbers, periods and escalation levels', async () => {
    const f = await alarmFixture(ctx.app);
    const db = ctx.app.db;
    const member = await buildUser(db);
    await addMember(db, f.company.id, member.id);
    // Doubles whose shortest digits are long, tiny, huge or negative, and JSON columns: the
    // statement's check must find each stored rule as the edit read it.
    const awkward = [0.1 + 0.2, 1e-7, 5e-324, 1.7976931348623157e308, -0.0001, 123456789.12345679];
    const [row] = await db
      .insert(alarmSettings)
      .values({
        companyId: f.company.id,
        carrier: 'sensor',
        targetId: f.sensor.id,
        deviceId: Number(f.device.id),
        sensorId: f.sensor.id,
        level: 2,
        alarmType: 'overLimit',
        min: awkward[0],
        max: awkward[3],
        preMin: awkward[1],
        preMax: awkward[5],
        hysteresis: awkward[2],
        repeat: 3,
        allDay: false,
        periods: [
          { start: '22:00', end: '06:00' },
          { start: '12:30', end: '13:45' },
        ],
        weekdays: [1, 3, 7],
        timeZone: 'Asia/Shanghai',
        channels: ['email', 'sms'],
        notifierIds: [f.company.admin.id, member.id],
        escalation: [
          { level: 2, notifierIds: [member.id], channels: ['sms'] },
          { level: 3, notifierIds: [f.company.admin.id, member.id], channels: ['email', 'call'] },
        ],
      })
      .returning();
    const id = String(row!.id);
    const scope = eq(devices.companyId, f.company.id);
    const actor = { companyId: f.company.id, userId: f.company.admin.id, ip: '127.0.0.1' };
    const { id: _id, createdAt: _created, updatedAt: _updated, ...values } = row!;
    for (const min of [awkward[4], 1e-7, 0.1 + 0.2]) {
      const read = await settingToEditAhead(db, f.company.id, scope, id);
      const edit = { ...values, min } as Parameters<typeof tryQuickEdit>[4];
      expect(await tryQuickEdit(db, actor, scope, id, edit, read)).toEqual({ id });
    }
    const [stored] = await db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(id)));
    expect(stored!.min).toBe(0.1 + 0.2);
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, f.as);
    expect(chain.body.data).toMatchObject({ ok: true, problems: [] });
  });

  it('writes edits of one rule given at once one after another, each from the row the one before wrote', async () => {
    const f = await alarmFixture(ctx.app);
    const db = ctx.app.db;
    const id = (await f.save({})).body.data.id;
    const scope = visibleDevices({
      companyId: f.company.id,
      userId: f.company.admin.id,
      scopePath: null,
    } as Auth);
    const actor = { companyId: f.company.id, userId: f.company.admin.id, ip: '127.0.0.1' };
    const read = await settingToEditAhead(db, f.company.id, scope, id);
    const [row] = await db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(id)));
    const { id: _id, createdAt: _created, updatedAt: _updated, ...values } = row!;

    // One read for all three (the embedded database's): stale for the second and the third, which
    // start from the row the one before them writes. On PostgreSQL each reads the rule, locked.
    const answers = await Promise.all(
      [11, 12, 13].map((max) =>
        tryQuickEdit(db, actor, scope, id, { ...values, max } as Parameters<typeof tryQuickEdit>[4], read),
      ),
    );
    expect(answers).toEqual([{ id }, { id }, { id }]);
    const edits = await editEntries(ctx.app.db, id);
    // Each starts from the rule the one before left (on PostgreSQL in the order their locks came).
    const maxes = edits.map((e) => [(e.before as { max: number }).max, (e.after as { max: number }).max]);
    expect(maxes.map(([before]) => before)).toEqual([8, ...maxes.slice(0, -1).map(([, after]) => after)]);
    expect(maxes.map(([, after]) => after).sort()).toEqual([11, 12, 13]);
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, f.as);
    expect(chain.body.data).toMatchObject({ ok: true, problems: [] });
  });
});
