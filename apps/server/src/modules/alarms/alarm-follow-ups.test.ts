import { eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { call } from '../../test/build-app';
import { addMember, buildDevice, buildUser } from '../../test/factories';
import { AlarmFollowUps } from './alarm-follow-ups';
import { alarmFixture, manualClock, postReadings, useClockedTestApp } from './alarm-test-support';
import { alarmFollowUps, alarmNotifications, alarmRecords } from './alarms.table';

const MINUTE = 60_000;
/** The server's clock, hours behind the wall clock so that every reading lies in the past. */
const clock = manualClock(Math.floor(Date.now() / MINUTE) * MINUTE - 3 * 3_600_000);

describe('alarm reminders and escalation on the server clock', () => {
  const ctx = useClockedTestApp(clock);

  const recordOf = async (deviceId: string) =>
    (
      await ctx.app.db
        .select()
        .from(alarmRecords)
        .where(eq(alarmRecords.deviceId, Number(deviceId)))
    )[0]!;
  const outboxOf = (alarmId: number) =>
    ctx.app.db
      .select()
      .from(alarmNotifications)
      .where(eq(alarmNotifications.alarmId, alarmId))
      .orderBy(alarmNotifications.id);
  /** A logger's buffer: ten records one minute apart, the newest `at`, all at `value`, sent in one upload. */
  const bufferedUpload = async (device: { serial: string; deviceKey: string }, at: number, value: number) => {
    const records = Array.from({ length: 10 }, (_, i) => ({ ts: at - (9 - i) * MINUTE, v: value }));
    expect((await postReadings(ctx.app, device, records)).statusCode).toBe(200);
    await ctx.app.alarms.idle();
  };
  /** Moves the server clock minute by minute, running due follow-ups each minute; calls `each` after every step. */
  const passMinutes = async (minutes: number, each: (elapsed: number) => Promise<void> = async () => {}) => {
    for (let i = 0; i < minutes; i++) {
      clock.advance(MINUTE);
      await ctx.app.alarmFollowUps.runDue();
      await each(i + 1);
    }
  };

  it('a buffered upload raises one notification; reminders follow every 120 s of server time, five in all', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ repeat: 5, repeatIntervalSeconds: 120 });
    const start = clock.now();
    // Ten records, one a minute, uploaded at once (the logger uploads every 10 minutes), all at 9 °C.
    await bufferedUpload(f.device, start, 9);
    const record = await recordOf(f.device.id);
    expect(record.count).toBe(1);
    expect((await outboxOf(record.id)).map((n) => `${n.sequence}:${n.channel}`)).toEqual([
      '1:email',
      '1:sms',
    ]);

    // Twenty minutes of server time: the next buffered upload arrives after ten of them.
    const countAt: Record<number, number> = {};
    await passMinutes(20, async (elapsed) => {
      if (elapsed === 10) await bufferedUpload(f.device, clock.now(), 9);
      countAt[elapsed] = (await recordOf(f.device.id)).count;
    });
    // Never sooner than the interval after the previous one, and no more than `repeat` in all.
    expect(countAt).toMatchObject({ 1: 1, 2: 2, 3: 2, 4: 3, 6: 4, 7: 4, 8: 5, 20: 5 });
    const rounds = (await outboxOf(record.id)).map((n) => n.sequence);
    expect(rounds).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    // Nothing left to schedule once the fifth has gone.
    expect(
      await ctx.app.db.select().from(alarmFollowUps).where(eq(alarmFollowUps.alarmId, record.id)),
    ).toEqual([]);
  });

  it('survives a restart and is sent once by two instances; stops when resolved or when the value comes back', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({ repeat: 10, repeatIntervalSeconds: 120 });
    await bufferedUpload(f.device, clock.now(), 9);
    const record = await recordOf(f.device.id);
    clock.advance(2 * MINUTE);
    // Two fresh instances (another process, a restarted one) on the same database, at the same time.
    const one = new AlarmFollowUps(ctx.app.db, ctx.app.hub, ctx.app.log, clock.read);
    const two = new AlarmFollowUps(ctx.app.db, ctx.app.hub, ctx.app.log, clock.read);
    await Promise.all([one.runDue(), two.runDue()]);
    expect((await recordOf(f.device.id)).count).toBe(2);
    expect(await outboxOf(record.id)).toHaveLength(4);

    // Back in range: the excursion ends and no reminder follows.
    await bufferedUpload(f.device, clock.now(), 5);
    await passMinutes(10);
    expect((await recordOf(f.device.id)).count).toBe(2);

    const g = await alarmFixture(ctx.app, 'Vaccine fridge 2');
    await g.save({ repeat: 10, repeatIntervalSeconds: 120 });
    await bufferedUpload(g.device, clock.now(), 9);
    const other = await recordOf(g.device.id);
    const resolved = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: String(other.id), resolveType: 'handled', cause: 'door left open' },
      g.as,
    );
    expect(resolved.body.msgCode).toBe(200);
    await passMinutes(10);
    expect((await recordOf(g.device.id)).count).toBe(1);
  });

  it('escalation climbs to each level’s own people and channels, paced by the server clock; acknowledging stops it', async () => {
    const f = await alarmFixture(ctx.app);
    const { addMember, buildUser } = await import('../../test/factories');
    const head = await buildUser(ctx.app.db, { name: 'Department head' });
    const quality = await buildUser(ctx.app.db, { name: 'Quality manager' });
    await addMember(ctx.app.db, f.company.id, head.id);
    await addMember(ctx.app.db, f.company.id, quality.id);
    const saved = await f.save({
      repeat: 1,
      channels: ['email'],
      escalateAfterSeconds: 300,
      escalation: [
        { level: 2, notifierIds: [String(head.id)], channels: ['call'] },
        { level: 3, notifierIds: [String(quality.id)], channels: ['email', 'sms'] },
      ],
    });
    expect(saved.body.msgCode).toBe(200);
    // One upload carrying an hour of reading time escalates nothing by itself.
    const start = clock.now();
    await postReadings(
      ctx.app,
      f.device,
      Array.from({ length: 7 }, (_, i) => ({ ts: start - (6 - i) * 10 * MINUTE, v: 9 })),
    );
    await ctx.app.alarms.idle();
    const record = await recordOf(f.device.id);
    expect(record.level).toBe(1);

    const levelAt: Record<number, number> = {};
    await passMinutes(12, async (elapsed) => {
      levelAt[elapsed] = (await recordOf(f.device.id)).level;
    });
    expect(levelAt).toMatchObject({ 4: 1, 5: 2, 9: 2, 10: 3, 12: 3 });
    const outbox = await outboxOf(record.id);
    expect(outbox.map((n) => `L${n.level}:${n.userId}:${n.channel}`)).toEqual([
      `L1:${f.company.admin.id}:email`,
      `L2:${head.id}:call`,
      `L3:${quality.id}:email`,
      `L3:${quality.id}:sms`,
    ]);

    // Acknowledged at level 2: the climb stops there.
    const g = await alarmFixture(ctx.app, 'Vaccine fridge 3');
    await g.save({ repeat: 1, channels: ['email'], escalateAfterSeconds: 300 });
    await bufferedUpload(g.device, clock.now(), 9);
    await passMinutes(5);
    const taken = await recordOf(g.device.id);
    expect(taken.level).toBe(2);
    await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: String(taken.id), resolveType: 'handled', cause: 'compressor restarted' },
      g.as,
    );
    await passMinutes(10);
    expect((await recordOf(g.device.id)).level).toBe(2);
    // Without levels of their own, levels 2 and 3 reach the setting's notifiers (as before).
    expect((await outboxOf(taken.id)).map((n) => `L${n.level}:${n.userId}`)).toEqual([
      `L1:${g.company.admin.id}`,
      `L2:${g.company.admin.id}`,
    ]);
  });

  it('sends the reminders of a crowd of alarms in one statement per batch, a reminder and an escalation due together both', async () => {
    const f = await alarmFixture(ctx.app, 'Site fridge 0');
    const head = await buildUser(ctx.app.db, { name: 'Site head' });
    await addMember(ctx.app.db, f.company.id, head.id);
    // The first device's reminder and escalation fall due in the same minute.
    await f.save({
      repeat: 3,
      repeatIntervalSeconds: 120,
      channels: ['email'],
      escalateAfterSeconds: 120,
      escalation: [{ level: 2, notifierIds: [String(head.id)], channels: ['call'] }],
    });
    const devices = [f.device];
    // 54 more devices of the site (a power cut takes them all out): 55 due together, over one batch of 50.
    for (let i = 1; i < 55; i++) {
      const device = await buildDevice(ctx.app.db, f.company.id, { name: `Site fridge ${i}` });
      const saved = await f.save({
        targetId: String(device.sensors[0]!.id),
        repeat: 3,
        repeatIntervalSeconds: 120,
        channels: ['email'],
      });
      expect(saved.body.msgCode).toBe(200);
      devices.push(device);
    }
    const at = clock.now();
    for (const device of devices) {
      expect((await postReadings(ctx.app, device, [{ ts: at, v: 9 }])).statusCode).toBe(200);
    }
    await ctx.app.alarms.idle();

    const dialect = new PgDialect();
    const statements: string[] = [];
    const live: { count: number; level: number; deviceId: string }[] = [];
    const transaction = ctx.app.db.transaction;
    const publish = ctx.app.hub.publish;
    ctx.app.db.transaction = ((
      run: Parameters<typeof transaction>[0],
      config?: Parameters<typeof transaction>[1],
    ) =>
      transaction.call(
        ctx.app.db,
        (tx) => {
          const execute = tx.execute;
          tx.execute = ((query: SQL) => {
            statements.push(dialect.sqlToQuery(query).sql);
            return execute.call(tx, query);
          }) as typeof tx.execute;
          return run(tx);
        },
        config,
      )) as typeof transaction;
    ctx.app.hub.publish = ((
      audience: Parameters<typeof publish>[0],
      message: Parameters<typeof publish>[1],
    ) => {
      if (message.type === 'alarm') {
        const m = message.bindContent as { count: number; level: number; deviceId: string };
        live.push({ count: m.count, level: m.level, deviceId: m.deviceId });
      }
      return publish.call(ctx.app.hub, audience, message);
    }) as typeof publish;
    try {
      clock.advance(2 * MINUTE);
      await ctx.app.alarmFollowUps.runDue();
    } finally {
      ctx.app.db.transaction = transaction;
      ctx.app.hub.publish = publish;
    }

    // Two batches (50 and 5), one statement each for all their records, outbox rows and schedules.
    expect(statements.filter((text) => text.includes('"alarm_notifications"'))).toHaveLength(2);
    for (const device of devices) expect((await recordOf(device.id)).count).toBe(2);
    const first = await recordOf(f.device.id);
    expect(first.level).toBe(2);
    expect(
      (await outboxOf(first.id)).map((n) => `${n.sequence}:L${n.level}:${n.userId}:${n.channel}`),
    ).toEqual([
      `1:L1:${f.company.admin.id}:email`,
      `2:L1:${f.company.admin.id}:email`,
      `2:L2:${head.id}:call`,
    ]);
    // A live message per round, each as that round left the alarm.
    expect(live.filter((m) => m.deviceId === String(f.device.id))).toEqual([
      { count: 2, level: 1, deviceId: String(f.device.id) },
      { count: 2, level: 2, deviceId: String(f.device.id) },
    ]);
    expect(live).toHaveLength(56);
  });
});
