import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { devices } from '../devices/devices.table';
import type { CommittedReading } from '../ingest/write-batch';
import { AlarmEvaluator } from './alarm-evaluator';
import { alarmFixture, postEvent, postReadings } from './alarm-test-support';
import { alarmNotifications, alarmRecords, alarmState } from './alarms.table';

function nextMessage(socket: import('ws').WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

describe('alarm evaluation on the hot path', () => {
  // Every test logs in; the login rate limit is not under test here.
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  const recordsOf = (deviceId: string) =>
    ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(deviceId)))
      .orderBy(alarmRecords.id);
  type Reading = Parameters<typeof postReadings>[2][number];
  /** Readings posted as a logger does, then judged: the engine is idle again when this returns. */
  const judged = async (f: { device: { serial: string; deviceKey: string } }, records: Reading[]) => {
    await postReadings(ctx.app, f.device, records);
    await ctx.app.alarms.idle();
  };
  /** A logger's buffer, arriving late: out of range from t+400s to its last record at t+520s. */
  const lateBufferOut = (t: number): Reading[] => [
    { ts: t + 400_000, v: 9 },
    { ts: t + 460_000, v: 9 },
    { ts: t + 520_000, v: 9 },
  ];
  const deviceState = async (deviceId: string) =>
    (
      await ctx.app.db
        .select()
        .from(devices)
        .where(eq(devices.id, Number(deviceId)))
    )[0]!.state;

  it('HTTP reading out of range -> alarm record, outbox rows and a live message within the request cycle', async () => {
    const f = await alarmFixture(ctx.app);
    expect((await f.save({ channels: ['email', 'sms', 'wechat'] })).body.msgCode).toBe(200);

    const socket = await ctx.app.injectWS('/api/ws');
    const bound = nextMessage(socket);
    socket.send(JSON.stringify({ bindType: 2, bindContent: f.token }));
    await bound;
    const pushed = nextMessage(socket);

    const now = Date.now();
    expect((await postReadings(ctx.app, f.device, [{ ts: now - 1000, v: 5 }])).statusCode).toBe(200);
    expect((await postReadings(ctx.app, f.device, [{ ts: now, v: 9.4 }])).statusCode).toBe(200);
    await ctx.app.alarms.idle();

    const [record, ...more] = await recordsOf(f.device.id);
    expect(more).toHaveLength(0);
    expect(record).toMatchObject({
      alarmType: 'overLimit',
      level: 1,
      count: 1,
      resolveState: 1,
      sensorId: f.sensor.id,
      lastValue: 9.4,
      content: {
        en: 'Temperature 1 of Vaccine fridge 1 is 9.4 °C, above the limit 8 °C',
        cn: 'Vaccine fridge 1的温度1为 9.4 °C，高于上限 8 °C',
      },
    });
    expect(record!.alarmTime.getTime()).toBe(now);
    const outbox = await ctx.app.db
      .select()
      .from(alarmNotifications)
      .where(eq(alarmNotifications.alarmId, record!.id));
    expect(outbox.map((n) => `${n.userId}:${n.channel}:${n.status}`).sort()).toEqual(
      ['email', 'sms', 'wechat'].map((c) => `${f.company.admin.id}:${c}:pending`),
    );
    expect(await pushed).toEqual({
      type: 'alarm',
      bindContent: expect.objectContaining({
        alarmTime: now,
        alarmType: 'overLimit',
        groupName: '',
        deviceName: 'Vaccine fridge 1',
        deviceSerial: f.device.serial,
        deviceId: f.device.id,
        channelName: 'Temperature 1',
        objectName: 'Vaccine fridge 1',
        alarmContent: record!.content,
      }),
    });
    expect(await deviceState(f.device.id)).toBe(2);
    socket.terminate();

    // Back in range: the excursion ends, the pending record is normalized, the device is normal.
    await judged(f, [{ ts: now + 1000, v: 5 }]);
    const [after] = await recordsOf(f.device.id);
    expect(after).toMatchObject({ resolveState: 5 });
    expect(after!.endTime!.getTime()).toBe(now + 1000);
    expect(await deviceState(f.device.id)).toBe(1);
  });

  it('back-fill: an excursion already alarmed live is not alarmed again; an earlier one is, as normalized', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ delaySeconds: 60 });
    const t = Date.now() - 3_600_000;
    // Live: out from t+600s, alarmed at t+660s.
    await judged(f, [
      { ts: t + 600_000, v: 9 },
      { ts: t + 660_000, v: 9 },
    ]);
    expect(await recordsOf(f.device.id)).toHaveLength(1);

    // The logger's buffer arrives late: the same excursion seen from t+480s, and an earlier one at t..t+120s.
    await judged(f, [
      { ts: t, v: 9.5 },
      { ts: t + 60_000, v: 9.5 },
      { ts: t + 120_000, v: 5 },
      { ts: t + 480_000, v: 9 },
      { ts: t + 540_000, v: 9 },
    ]);
    const records = await recordsOf(f.device.id);
    expect(records).toHaveLength(2);
    const early = records.find((r) => r.excursionStart.getTime() === t)!;
    expect(early).toMatchObject({ alarmType: 'overLimit', resolveState: 5 });
    expect(early.endTime!.getTime()).toBe(t + 120_000);
    expect(
      await ctx.app.db.select().from(alarmNotifications).where(eq(alarmNotifications.alarmId, early.id)),
    ).toHaveLength(2);
  });

  it('back-fill: an excursion still out at the last late reading ends at the first stored reading in the band', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ delaySeconds: 60, hysteresis: 0.5 });
    const t = Date.now() - 3_600_000;
    // Live: inside the limits but above the band (7.8 > 7.5) at t+600s, in the band at t+660s.
    await judged(f, [
      { ts: t + 600_000, v: 7.8 },
      { ts: t + 660_000, v: 7.5 },
    ]);
    expect(await recordsOf(f.device.id)).toHaveLength(0);

    // The logger's buffer: out from t+400s, alarmed after the delay, still out at its last reading.
    await judged(f, lateBufferOut(t));
    const [record, ...more] = await recordsOf(f.device.id);
    expect(more).toHaveLength(0);
    expect(record).toMatchObject({ alarmType: 'overLimit', resolveState: 5 });
    expect(record!.excursionStart.getTime()).toBe(t + 400_000);
    // Not at 7.8 (inside the limits, outside the band), at 7.5: where the live engine would have ended it.
    expect(record!.endTime!.getTime()).toBe(t + 660_000);
  });

  it('restart: a new evaluator resumes from the persisted state (no second alarm, delay holds)', async () => {
    const f = await alarmFixture(ctx.app);
    const setting = await f.save({ delaySeconds: 30 });
    const t = Date.now() - 600_000;
    const reading = (s: number, value: number): CommittedReading => ({
      companyId: f.company.id,
      deviceId: Number(f.device.id),
      sensorId: f.sensor.id,
      channel: 1,
      ts: t + s * 1000,
      value,
      mode: 'normal',
      backfilled: false,
    });
    const first = new AlarmEvaluator(ctx.app.db, ctx.app.hub, ctx.app.log);
    await first.onReadings([reading(0, 9)]);
    expect(await recordsOf(f.device.id)).toHaveLength(0);

    // "Restart": the delay measured from reading 0 is honoured by a fresh instance.
    const second = new AlarmEvaluator(ctx.app.db, ctx.app.hub, ctx.app.log);
    await second.onReadings([reading(30, 9)]);
    expect(await recordsOf(f.device.id)).toHaveLength(1);

    const third = new AlarmEvaluator(ctx.app.db, ctx.app.hub, ctx.app.log);
    await third.onReadings([reading(60, 9), reading(90, 9), reading(150, 9), reading(210, 9)]);
    const [record, ...more] = await recordsOf(f.device.id);
    expect(more).toHaveLength(0);
    // Reminders are not the readings' business (alarm-follow-ups.test.ts): one round, e-mail and SMS.
    expect(record!.count).toBe(1);
    expect(
      await ctx.app.db.select().from(alarmNotifications).where(eq(alarmNotifications.alarmId, record!.id)),
    ).toHaveLength(2);
    const [saved] = await ctx.app.db
      .select()
      .from(alarmState)
      .where(
        and(eq(alarmState.sensorId, f.sensor.id), eq(alarmState.settingId, Number(setting.body.data.id))),
      );
    expect(saved).toMatchObject({ active: true, state: { phase: 'alarm', since: t } });
  });

  it('offline sweep -> offline alarm; the next reading -> online notice and the offline alarm normalized', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('offline');
    const now = Date.now();
    await ctx.app.alarms.onOffline([
      { id: Number(f.device.id), companyId: f.company.id, serial: f.device.serial, dueAt: now },
    ]);
    let records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.alarmType, r.resolveState])).toEqual([['offline', 1]]);
    expect(records[0]!.content.en).toBe(`Vaccine fridge 1 (${f.device.serial}) is offline`);

    await judged(f, [{ ts: now + 1000, v: 5 }]);
    records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.alarmType, r.resolveState])).toEqual([
      ['offline', 5],
      ['online', 5],
    ]);
    // A second reading does not announce "online" again.
    await judged(f, [{ ts: now + 2000, v: 5 }]);
    expect(await recordsOf(f.device.id)).toHaveLength(2);
  });

  it('back-fill: late readings and a live one in the band in one message: the excursion ends at the live one', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ delaySeconds: 60, hysteresis: 0.5 });
    const t = Date.now() - 3_600_000;
    await judged(f, [{ ts: t + 600_000, v: 7.8 }]);
    await judged(f, [...lateBufferOut(t), { ts: t + 700_000, v: 7.5 }]);
    const records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.resolveState, r.endTime?.getTime()])).toEqual([[5, t + 700_000]]);
    expect(await deviceState(f.device.id)).toBe(1);
  });

  it('back-fill: an excursion the readings since have not ended is taken over by the live engine', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ delaySeconds: 60, hysteresis: 0.5 });
    const t = Date.now() - 3_600_000;
    // Live: inside the limits but never back in the band, so the live engine raises nothing.
    await judged(f, [
      { ts: t + 600_000, v: 7.8 },
      { ts: t + 660_000, v: 7.9 },
    ]);

    // The logger's buffer: out from t+400s. Nothing stored since has ended it: it stays open.
    await judged(f, lateBufferOut(t));
    let records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.alarmType, r.resolveState, r.endTime])).toEqual([['overLimit', 1, null]]);
    expect(await deviceState(f.device.id)).toBe(2);

    // Out again live: the same excursion, no second alarm. Then in the band: it ends.
    await judged(f, [
      { ts: t + 720_000, v: 9 },
      { ts: t + 840_000, v: 9 },
    ]);
    expect(await recordsOf(f.device.id)).toHaveLength(1);
    await judged(f, [{ ts: t + 900_000, v: 7.5 }]);
    records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.resolveState, r.endTime?.getTime()])).toEqual([[5, t + 900_000]]);
    expect(await deviceState(f.device.id)).toBe(1);
  });

  const clearingOf = async (f: { as: { token: string; companyId: number } }, id: number) =>
    (await call<{ clearing: unknown }>(ctx.app, '/api/alarm/alarmDetail', { id: String(id) }, f.as)).body.data
      .clearing;

  it('the detail of an open value alarm quotes the band that actually clears it and the latest reading', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ hysteresis: 0.5 });
    const now = Date.now();
    await judged(f, [
      { ts: now - 3000, v: 5 },
      { ts: now - 2000, v: 9.1 },
    ]);
    const [record] = await recordsOf(f.device.id);
    expect(await clearingOf(f, record!.id)).toEqual({
      kind: 'value',
      low: 2.5,
      high: 7.5,
      hysteresis: 0.5,
      unit: '°C',
      latestValue: 9.1,
      latestTs: now - 2000,
    });

    // Back inside the limits but not the band: still open, and the latest reading follows.
    await judged(f, [{ ts: now - 1000, v: 7.6 }]);
    expect(await clearingOf(f, record!.id)).toMatchObject({
      high: 7.5,
      latestValue: 7.6,
      latestTs: now - 1000,
    });
    expect((await recordsOf(f.device.id))[0]!.endTime).toBeNull();

    // At the quoted bound it clears, and the ended alarm explains nothing.
    await judged(f, [{ ts: now, v: 7.5 }]);
    expect((await recordsOf(f.device.id))[0]!.endTime!.getTime()).toBe(now);
    expect(await clearingOf(f, record!.id)).toBeNull();
  });

  it('the detail of an open offline alarm says the device must send data; another company sees nothing', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('offline');
    const now = Date.now();
    await ctx.app.alarms.onOffline([
      { id: Number(f.device.id), companyId: f.company.id, serial: f.device.serial, dueAt: now },
    ]);
    const [record] = await recordsOf(f.device.id);
    expect(await clearingOf(f, record!.id)).toEqual({ kind: 'offline' });
    const other = await alarmFixture(ctx.app);
    const foreign = await call(ctx.app, '/api/alarm/alarmDetail', { id: String(record!.id) }, other.as);
    expect(foreign.body).toMatchObject({ msgCode: 500, data: null });

    await judged(f, [{ ts: now + 1000, v: 5 }]);
    const [offline, online] = await recordsOf(f.device.id);
    expect(await clearingOf(f, offline!.id)).toBeNull();
    // The online notice is born normalized: nothing to wait for.
    expect(await clearingOf(f, online!.id)).toBeNull();
  });

  it('device events raise alarms only where a setting of that type exists; powerOn ends power-off', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('powerOff');
    const now = Date.now();
    await postEvent(ctx.app, f.device, 'lowBattery', now - 2000);
    await postEvent(ctx.app, f.device, 'powerOff', now - 1000);
    await ctx.app.alarms.idle();
    let records = await recordsOf(f.device.id);
    expect(records.map((r) => r.alarmType)).toEqual(['powerOff']);
    expect(await clearingOf(f, records[0]!.id)).toEqual({ kind: 'powerOff' });
    await postEvent(ctx.app, f.device, 'powerOn', now);
    await ctx.app.alarms.idle();
    records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.alarmType, r.resolveState])).toEqual([['powerOff', 5]]);
    expect(await clearingOf(f, records[0]!.id)).toBeNull();
  });

  it('the detail of a low-battery alarm says only resolving ends it, until someone has', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('lowBattery');
    await postEvent(ctx.app, f.device, 'lowBattery', Date.now());
    await ctx.app.alarms.idle();
    const [record] = await recordsOf(f.device.id);
    expect(await clearingOf(f, record!.id)).toEqual({ kind: 'resolveOnly' });
    const id = String(record!.id);
    const resolved = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id, resolveType: 'handled', cause: 'Battery swapped' },
      f.as,
    );
    expect(resolved.body.msgCode).toBe(200);
    expect(await clearingOf(f, record!.id)).toBeNull();
  });

  it('loading mode and readings outside the time slot raise nothing over HTTP either', async () => {
    const f = await alarmFixture(ctx.app);
    const now = new Date();
    const hour = now.getUTCHours();
    // A one-hour period that excludes the current hour.
    const from = `${String((hour + 2) % 24).padStart(2, '0')}:00`;
    const to = `${String((hour + 3) % 24).padStart(2, '0')}:00`;
    await f.save({ timeSlot: 'periods', periods: [{ start: from, end: to }] });
    await postReadings(ctx.app, f.device, [{ ts: now.getTime() - 1000, v: 9 }]);
    const other = await alarmFixture(ctx.app);
    await other.save({});
    await postReadings(ctx.app, other.device, [{ ts: now.getTime(), v: 12, mode: 'loading' }]);
    await ctx.app.alarms.idle();
    expect(await recordsOf(f.device.id)).toHaveLength(0);
    expect(await recordsOf(other.device.id)).toHaveLength(0);
  });
});
