import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { sensors } from '../devices/devices.table';
import type { EngineState } from './alarm-engine';
import { alarmFixture, postReadings } from './alarm-test-support';
import { alarmRecords, alarmSettings, alarmState } from './alarms.table';

/**
 * The rule cache and its quiet pass (alarm-rule-cache.ts, alarm-quiet-pass.ts): in-range readings
 * of a settled device are judged without loading its context, and every change to what they are
 * judged by (made here or by another process, straight in the database) applies to the next reading.
 */
describe('alarm rule cache and quiet pass', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  const recordsOf = (deviceId: string) =>
    ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(deviceId)))
      .orderBy(alarmRecords.id);
  /** The engine's state of one setting (a device also has its default `abnormal` setting). */
  const stateOf = async (settingId: string) =>
    (
      await ctx.app.db
        .select()
        .from(alarmState)
        .where(eq(alarmState.settingId, Number(settingId)))
    )[0]!;
  type Fixture = Awaited<ReturnType<typeof alarmFixture>>;
  const judged = async (f: Fixture, ts: number, v: number) => {
    expect((await postReadings(ctx.app, f.device, [{ ts, v }])).statusCode).toBe(200);
    await ctx.app.alarms.idle();
  };
  /** Two in-range readings: the first fills the cache, the second takes the quiet pass. */
  const settled = async (f: Fixture, t: number) => {
    await judged(f, t, 5);
    expect(ctx.app.alarms.rules.get(Number(f.device.id))).toMatchObject({ unsettled: false });
    await judged(f, t + 10_000, 5);
  };

  it('in-range readings of a settled device keep its state normal and move its instant on', async () => {
    const f = await alarmFixture(ctx.app, 'Quiet fridge');
    const saved = await f.save({});
    const id = saved.body.data!.id;
    const t = Date.now() - 600_000;
    await settled(f, t);
    const state = await stateOf(id);
    expect(state.state).toEqual({
      phase: 'normal',
      severity: null,
      since: null,
      upgradeSince: null,
      lastTs: t + 10_000,
    });
    expect(state.active).toBe(false);
    // A late in-range reading does not move the instant back.
    await judged(f, t + 5_000, 5);
    expect((await stateOf(id)).state).toMatchObject({ phase: 'normal', lastTs: t + 10_000 });
    // Out of range leaves the quiet pass: the engine raises at once (no delay).
    await judged(f, t + 20_000, 9);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).toEqual(['overLimit']);
    expect(ctx.app.alarms.rules.get(Number(f.device.id))).toMatchObject({ unsettled: true });
  });

  it('a reading beyond the measuring range leaves the quiet pass for the device abnormal alarm', async () => {
    // Only the device's default `abnormal` setting: its limits are the sensor's range (-40..85).
    const f = await alarmFixture(ctx.app, 'Ranged fridge');
    const t = Date.now() - 600_000;
    await settled(f, t);
    await judged(f, t + 20_000, 84.9);
    expect(await recordsOf(f.device.id)).toHaveLength(0);
    await judged(f, t + 30_000, 85.5);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).toEqual(['abnormal']);
  });

  it('a setting edited through the console: the next reading is judged by the new limits', async () => {
    const f = await alarmFixture(ctx.app, 'Edited fridge');
    const saved = await f.save({});
    const t = Date.now() - 600_000;
    await settled(f, t);
    expect(await recordsOf(f.device.id)).toHaveLength(0);
    expect((await f.save({ id: saved.body.data!.id, max: 4 })).body.msgCode).toBe(200);
    await judged(f, t + 20_000, 5);
    const [record, ...more] = await recordsOf(f.device.id);
    expect(more).toHaveLength(0);
    expect(record).toMatchObject({ alarmType: 'overLimit', lastValue: 5 });
  });

  it('a setting changed by another process, straight in the database: the next reading sees it', async () => {
    const f = await alarmFixture(ctx.app, 'Remote edit fridge');
    const saved = await f.save({});
    const t = Date.now() - 600_000;
    await settled(f, t);
    // No event in this process and not even `updated_at` moved: only the limit differs.
    await ctx.app.db
      .update(alarmSettings)
      .set({ max: 4 })
      .where(eq(alarmSettings.id, Number(saved.body.data!.id)));
    await judged(f, t + 20_000, 5);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).toEqual(['overLimit']);
  });

  it('a setting added by another process: the next reading is judged by it too', async () => {
    const f = await alarmFixture(ctx.app, 'Added setting fridge');
    const saved = await f.save({});
    const t = Date.now() - 600_000;
    await settled(f, t);
    const [existing] = await ctx.app.db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.id, Number(saved.body.data!.id)));
    const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = existing!;
    await ctx.app.db
      .insert(alarmSettings)
      .values({ ...copy, alarmType: 'preAlarm', min: null, max: null, preMin: 3, preMax: 4 });
    await judged(f, t + 20_000, 5);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).toEqual(['preAlarm']);
  });

  it('a setting deleted by another process: the next in-range reading is stored, with no state for it', async () => {
    const f = await alarmFixture(ctx.app, 'Deleted setting fridge');
    const saved = await f.save({});
    const settingId = Number(saved.body.data!.id);
    const t = Date.now() - 600_000;
    await settled(f, t);
    expect(ctx.app.alarms.rules.get(Number(f.device.id))!.value.map((v) => v.id)).toContain(settingId);
    // The cache still holds the setting: writing its state normal would break the batch (the
    // state's setting is gone), so the check must send the device to the full evaluation.
    await ctx.app.db.delete(alarmSettings).where(eq(alarmSettings.id, settingId));
    // A failed batch would still store the readings and judge them apart (the evaluator's
    // fallback), which would hide the failure: the batch must not need it.
    const apart = vi.spyOn(ctx.app.alarms as unknown as { judgeApart: () => Promise<void> }, 'judgeApart');
    await judged(f, t + 20_000, 5);
    expect(apart).not.toHaveBeenCalled();
    apart.mockRestore();
    expect(
      await ctx.app.db.select().from(alarmState).where(eq(alarmState.settingId, settingId)),
    ).toHaveLength(0);
    expect(ctx.app.alarms.rules.get(Number(f.device.id))!.value.map((v) => v.id)).not.toContain(settingId);
    await judged(f, t + 30_000, 9);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).not.toContain('overLimit');
  });

  it('a channel switched back on by another process is judged at its next reading', async () => {
    const f = await alarmFixture(ctx.app, 'Switched fridge');
    expect((await f.save({})).body.msgCode).toBe(200);
    await ctx.app.db.update(sensors).set({ enabled: false }).where(eq(sensors.id, f.sensor.id));
    const t = Date.now() - 600_000;
    // Cached with the channel off: its readings, even out of range, are stored and never judged.
    await judged(f, t, 5);
    await judged(f, t + 10_000, 9);
    expect(await recordsOf(f.device.id)).toHaveLength(0);
    await ctx.app.db.update(sensors).set({ enabled: true }).where(eq(sensors.id, f.sensor.id));
    await judged(f, t + 20_000, 9);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).toEqual(['overLimit']);
  });

  it('an excursion under way (pending by its delay) is never taken for quiet', async () => {
    const f = await alarmFixture(ctx.app, 'Pending fridge');
    const saved = await f.save({ delaySeconds: 60 });
    const t = Date.now() - 600_000;
    await settled(f, t);
    await judged(f, t + 20_000, 9);
    expect((await stateOf(saved.body.data!.id)).state).toMatchObject({ phase: 'pending', since: t + 20_000 });
    expect(ctx.app.alarms.rules.get(Number(f.device.id))).toMatchObject({ unsettled: true });
    await judged(f, t + 90_000, 9);
    expect((await recordsOf(f.device.id)).map((r) => r.alarmType)).toEqual(['overLimit']);
  });

  it('an alarm held by the engine, even one another process raised, ends only in its clearing band', async () => {
    const f = await alarmFixture(ctx.app, 'Held fridge');
    const saved = await f.save({ hysteresis: 1 });
    const t = Date.now() - 600_000;
    await settled(f, t);
    // Another process judged a reading of 9: its engine holds an alarm; this one's cache still says settled.
    const held: EngineState = {
      phase: 'alarm',
      severity: 'alarm',
      since: t + 15_000,
      upgradeSince: null,
      lastTs: t + 15_000,
      peak: 9,
    };
    await ctx.app.db
      .update(alarmState)
      .set({ state: held, active: true })
      .where(eq(alarmState.settingId, Number(saved.body.data!.id)));
    // 7.5 is inside the limits (2-8) but not the clearing band (3-7): the alarm holds.
    await judged(f, t + 20_000, 7.5);
    expect((await stateOf(saved.body.data!.id)).state).toMatchObject({ phase: 'alarm', lastTs: t + 20_000 });
    await judged(f, t + 30_000, 6);
    expect((await stateOf(saved.body.data!.id)).state).toMatchObject({ phase: 'normal', lastTs: t + 30_000 });
  });
});
