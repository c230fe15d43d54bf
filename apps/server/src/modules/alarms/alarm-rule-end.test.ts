import { ResolveState } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { auditLog } from '../audit/audit.table';
import { alarmFixture, postReadings } from './alarm-test-support';
import { alarmFollowUps, alarmRecords } from './alarms.table';

/**
 * Issue 22 item 3: disabling or deleting a setting used to mark its open alarm "normalized"
 * (state 5, "the value came back") while the value was still 30 °C. It now ends with a reason of
 * its own and the person who changed the rule, audited and shown on the detail.
 */
describe('an alarm ended by its rule being disabled or deleted', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  /** A fridge at 30 °C against a 2-8 °C rule reminding every 2 minutes: one open alarm. */
  async function openAlarmAt30() {
    const f = await alarmFixture(ctx.app);
    const saved = await f.save({ repeat: 5, repeatIntervalSeconds: 120 });
    expect(saved.body.msgCode).toBe(200);
    const now = Date.now();
    expect((await postReadings(ctx.app, f.device, [{ ts: now, v: 30 }])).statusCode).toBe(200);
    await ctx.app.alarms.idle();
    const [record] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(and(eq(alarmRecords.deviceId, Number(f.device.id)), eq(alarmRecords.alarmType, 'overLimit')));
    expect(record).toMatchObject({ endTime: null, resolveState: ResolveState.Pending });
    return { ...f, settingId: saved.body.data.id, record: record! };
  }

  const reread = async (id: number) =>
    (await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.id, id)))[0]!;

  it('disabling the setting at 30 °C ends the alarm as "rule disabled by <user>", not normalized', async () => {
    const f = await openAlarmAt30();
    const disabled = await f.save({ id: f.settingId, repeat: 5, repeatIntervalSeconds: 120, enabled: false });
    expect(disabled.body.msgCode).toBe(200);

    const after = await reread(f.record.id);
    expect(after.endTime).not.toBeNull();
    expect(after).toMatchObject({
      endReason: 'ruleDisabled',
      endedBy: f.company.admin.id,
      // Still waiting for someone to say what happened: it did not come back by itself.
      resolveState: ResolveState.Pending,
    });
    // Its reminders stop with it.
    expect(
      await ctx.app.db.select().from(alarmFollowUps).where(eq(alarmFollowUps.alarmId, f.record.id)),
    ).toEqual([]);

    const [audit] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarm.endByRule'), eq(auditLog.targetId, String(f.record.id))));
    expect(audit).toMatchObject({ userId: f.company.admin.id, targetType: 'alarm' });
    expect(audit!.after).toMatchObject({ endReason: 'ruleDisabled', resolveState: ResolveState.Pending });

    const detail = await call(ctx.app, '/api/alarm/alarmDetail', { id: String(f.record.id) }, f.as);
    expect(detail.body.data).toMatchObject({
      resolveState: ResolveState.Pending,
      endReason: 'ruleDisabled',
      endedById: String(f.company.admin.id),
      endedByName: f.company.admin.name,
      lastValue: 30,
      peakValue: 30,
    });
  });

  it('deleting the setting ends it as "rule deleted"; editing it as "rule edited"', async () => {
    const f = await openAlarmAt30();
    const edited = await f.save({ id: f.settingId, max: 10 });
    expect(edited.body.msgCode).toBe(200);
    expect(await reread(f.record.id)).toMatchObject({
      endReason: 'ruleEdited',
      resolveState: ResolveState.Pending,
    });

    const g = await openAlarmAt30();
    const deleted = await call(ctx.app, '/api/deviceAlarmRule/deleteAlarmSetting', { id: g.settingId }, g.as);
    expect(deleted.body.msgCode).toBe(200);
    const after = await reread(g.record.id);
    expect(after).toMatchObject({
      endReason: 'ruleDeleted',
      endedBy: g.company.admin.id,
      resolveState: ResolveState.Pending,
      settingId: null,
    });
    expect(after.endTime).not.toBeNull();
    // Still resolvable: a person says what happened to the fridge.
    const resolved = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: String(g.record.id), resolveType: 'handled', cause: 'door left open' },
      g.as,
    );
    expect(resolved.body.msgCode).toBe(200);
  });

  it('an alarm that came back by itself has no end reason', async () => {
    const f = await openAlarmAt30();
    await postReadings(ctx.app, f.device, [{ ts: Date.now() + 1000, v: 5 }]);
    await ctx.app.alarms.idle();
    expect(await reread(f.record.id)).toMatchObject({
      endReason: null,
      endedBy: null,
      resolveState: ResolveState.Normalized,
    });
  });
});
