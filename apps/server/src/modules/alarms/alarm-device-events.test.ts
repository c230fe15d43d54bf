import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildDevice, buildUser } from '../../test/factories';
import { devices } from '../devices/devices.table';
import type { CommittedReading } from '../ingest/write-batch';
import type { LiveHub } from '../live/live-hub';
import { devicePermissions } from '../org/org.table';
import { sweepOfflineDevices } from '../telemetry/offline-sweep';
import { alarmFixture, postEvent } from './alarm-test-support';
import { alarmNotifications, alarmRecords, alarmState } from './alarms.table';

describe('device-level alarms: repeated events and the offline stamp', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  const recordsOf = (deviceId: string) =>
    ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(deviceId)))
      .orderBy(alarmRecords.id);
  const notificationsOf = async (deviceId: string) => {
    const ids = (await recordsOf(deviceId)).map((r) => r.id);
    const rows = await ctx.app.db.select().from(alarmNotifications);
    return rows.filter((n) => ids.includes(n.alarmId));
  };
  const send = async (f: { device: { serial: string; deviceKey: string } }, event: string, ts: number) => {
    expect((await postEvent(ctx.app, f.device, event, ts)).statusCode).toBe(200);
    await ctx.app.alarms.idle();
  };

  it('powerOff at t and again at t+100 s is one open alarm, notified once; after powerOn the next one is new', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('powerOff');
    const t = Date.now() - 600_000;
    await send(f, 'powerOff', t);
    await send(f, 'powerOff', t + 100_000);
    let records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.alarmType, r.resolveState, r.endTime])).toEqual([['powerOff', 1, null]]);
    expect(records[0]!.alarmTime.getTime()).toBe(t);
    expect(await notificationsOf(f.device.id)).toHaveLength(2);

    await send(f, 'powerOn', t + 200_000);
    await send(f, 'powerOff', t + 300_000);
    records = await recordsOf(f.device.id);
    expect(records.map((r) => [r.alarmType, r.resolveState])).toEqual([
      ['powerOff', 5],
      ['powerOff', 1],
    ]);
  });

  it('lowBattery twice is one alarm until someone resolves it', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('lowBattery');
    const t = Date.now() - 600_000;
    await send(f, 'lowBattery', t);
    await send(f, 'lowBattery', t + 100_000);
    const records = await recordsOf(f.device.id);
    expect(records.map((r) => r.alarmType)).toEqual(['lowBattery']);
    expect(await notificationsOf(f.device.id)).toHaveLength(2);

    // Resolved (battery changed): the next low-battery report is a new alarm.
    const resolved = await call(
      ctx.app,
      '/api/alarm/resolveAlarm',
      { id: String(records[0]!.id), resolveType: 'handled', cause: 'battery replaced' },
      f.as,
    );
    expect(resolved.body.msgCode).toBe(200);
    await send(f, 'lowBattery', t + 200_000);
    expect((await recordsOf(f.device.id)).map((r) => [r.alarmType, r.resolveState])).toEqual([
      ['lowBattery', 3],
      ['lowBattery', 1],
    ]);
  });

  it('an offline alarm is stamped with when the device was due, not when the sweep saw it', async () => {
    const f = await alarmFixture(ctx.app);
    await f.saveDeviceLevel('offline');
    const lastSeen = Date.now() - 3_600_000;
    await ctx.app.db
      .update(devices)
      .set({ state: 1, lastSeenAt: new Date(lastSeen) })
      .where(eq(devices.id, Number(f.device.id)));
    // Upload every 300 s, offline after 3 missed uploads; the sweep runs 45 minutes after that.
    const gone = await sweepOfflineDevices(ctx.app.db, new Date(lastSeen + 60 * 60_000));
    await ctx.app.alarms.onOffline(gone.filter((d) => d.id === Number(f.device.id)));
    const [record] = await recordsOf(f.device.id);
    expect(record!.alarmType).toBe('offline');
    expect(record!.alarmTime.getTime()).toBe(lastSeen + 15 * 60_000);
    expect(record!.excursionStart.getTime()).toBe(lastSeen + 15 * 60_000);
  });

  it('a fleet gone and back at once: every offline alarm, its state and notices in the batch, each live message to who may see that device', async () => {
    const f = await alarmFixture(ctx.app);
    const others = [
      await buildDevice(ctx.app.db, f.company.id, { name: 'Freezer 2' }),
      await buildDevice(ctx.app.db, f.company.id, { name: 'Freezer 3' }),
    ];
    const fleet = [
      { id: Number(f.device.id), serial: f.device.serial, sensorId: f.sensor.id },
      ...others.map((d) => ({ id: Number(d.id), serial: d.serial, sensorId: d.sensors[0]!.id })),
    ];
    for (const d of fleet) {
      const saved = await f.saveDeviceLevel('offline', d.id);
      expect(saved.body.msgCode).toBe(200);
    }
    // A member who may see the third device only (a device permission, no role).
    const viewer = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.company.id, viewer.id);
    await ctx.app.db
      .insert(devicePermissions)
      .values({ companyId: f.company.id, userId: viewer.id, deviceId: fleet[2]!.id });
    const hub = (ctx.app.alarms as unknown as { hub: LiveHub }).hub;
    const publish = vi.spyOn(hub, 'publish');
    const recipients = () =>
      new Map(publish.mock.calls.map(([to]) => [to.deviceId, [...to.userIds].sort((a, b) => a - b)]));

    const t = Date.now() - 600_000;
    // Judged two devices a transaction, each part queued on its own (ingest batches go between).
    const parts = vi.spyOn(ctx.app.alarms as unknown as { enqueue: () => Promise<void> }, 'enqueue');
    ctx.app.alarms.offlinePerTransaction = 2;
    try {
      await ctx.app.alarms.onOffline(
        fleet.map((d, i) => ({ id: d.id, companyId: f.company.id, serial: d.serial, dueAt: t + i })),
      );
    } finally {
      ctx.app.alarms.offlinePerTransaction = 500;
    }
    expect(parts).toHaveBeenCalledTimes(2);
    parts.mockRestore();
    const ids = fleet.map((d) => d.id);
    const offline = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(inArray(alarmRecords.deviceId, ids))
      .orderBy(alarmRecords.deviceId);
    expect(offline.map((r) => [r.deviceId, r.alarmType, r.resolveState, r.alarmTime.getTime()])).toEqual(
      fleet.map((d, i) => [d.id, 'offline', 1, t + i]),
    );
    const states = await ctx.app.db.select().from(alarmState).where(inArray(alarmState.deviceId, ids));
    expect(states.map((s) => [s.deviceId, s.sensorId, s.state.phase, s.state.since]).sort()).toEqual(
      fleet.map((d, i) => [d.id, 0, 'alarm', t + i]).sort(),
    );
    const everyone = [f.company.admin.id].sort((a, b) => a - b);
    expect(recipients()).toEqual(
      new Map([
        [fleet[0]!.id, everyone],
        [fleet[1]!.id, everyone],
        [fleet[2]!.id, [f.company.admin.id, viewer.id].sort((a, b) => a - b)],
      ]),
    );

    // All three come back in one batch (the first with two readings: its newest ends the alarm).
    publish.mockClear();
    const back = t + 60_000;
    const reading = (d: (typeof fleet)[number], ts: number): CommittedReading => ({
      companyId: f.company.id,
      deviceId: d.id,
      sensorId: d.sensorId,
      channel: 1,
      ts,
      value: 5,
      mode: 'normal',
      backfilled: false,
    });
    await ctx.app.alarms.onReadings([
      reading(fleet[0]!, back),
      reading(fleet[0]!, back + 5_000),
      reading(fleet[1]!, back + 1),
      reading(fleet[2]!, back + 2),
    ]);
    const after = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(inArray(alarmRecords.deviceId, ids))
      .orderBy(alarmRecords.deviceId, alarmRecords.id);
    const ends = [back + 5_000, back + 1, back + 2];
    expect(after.map((r) => [r.deviceId, r.alarmType, r.resolveState, r.endTime?.getTime() ?? null])).toEqual(
      fleet.flatMap((d, i) => [
        [d.id, 'offline', 5, ends[i]],
        [d.id, 'online', 5, null],
      ]),
    );
    // The notice starts where the device went away, and tells each notifier on each channel.
    const notices = after.filter((r) => r.alarmType === 'online');
    expect(notices.map((r) => [r.excursionStart.getTime(), r.alarmTime.getTime()])).toEqual(
      fleet.map((_, i) => [t + i, ends[i]]),
    );
    for (const notice of notices) expect(await notificationsOfAlarm(notice.id)).toEqual(['email', 'sms']);
    expect(recipients()).toEqual(
      new Map([
        [fleet[0]!.id, everyone],
        [fleet[1]!.id, everyone],
        [fleet[2]!.id, [f.company.admin.id, viewer.id].sort((a, b) => a - b)],
      ]),
    );
    const reset = await ctx.app.db.select().from(alarmState).where(inArray(alarmState.deviceId, ids));
    expect(reset.filter((s) => s.sensorId === 0).every((s) => s.state.phase === 'normal')).toBe(true);
  });

  const notificationsOfAlarm = async (alarmId: number) =>
    (await ctx.app.db.select().from(alarmNotifications).where(eq(alarmNotifications.alarmId, alarmId)))
      .map((n) => n.channel)
      .sort();

  /** A site of `size` devices of one company, each with a power-off setting. */
  async function powerSite(size: number) {
    const f = await alarmFixture(ctx.app);
    const site = [f.device];
    for (let i = 1; i < size; i++)
      site.push(await buildDevice(ctx.app.db, f.company.id, { name: `Site ${i}` }));
    for (const device of site) {
      const saved = await f.saveDeviceLevel('powerOff', device.id);
      expect(saved.body.msgCode).toBe(200);
    }
    const event = (device: { id: string }, ts: number, name: string) =>
      ctx.app.alarms.onEvent({ companyId: f.company.id, deviceId: Number(device.id), ts, event: name });
    return { f, site, event };
  }

  /** Runs `work` counting the transactions begun; the first `failing` of them fail at once. */
  async function countingTransactions(work: () => Promise<unknown>, failing = 0): Promise<number> {
    let transactions = 0;
    const transaction = ctx.app.db.transaction;
    ctx.app.db.transaction = ((...args: Parameters<typeof transaction>) => {
      transactions++;
      if (transactions <= failing) return Promise.reject(new Error('the database went away for a moment'));
      return transaction.apply(ctx.app.db, args);
    }) as typeof transaction;
    try {
      await work();
    } finally {
      ctx.app.db.transaction = transaction;
    }
    return transactions;
  }

  const recordsOfDevices = (site: { id: string }[]) =>
    ctx.app.db
      .select()
      .from(alarmRecords)
      .where(
        inArray(
          alarmRecords.deviceId,
          site.map((d) => Number(d.id)),
        ),
      );

  it('a site’s power cut: every device’s power-off judged in one transaction, a device reporting twice in order', async () => {
    const { site, event } = await powerSite(40);
    const t = Date.now() - 60_000;
    const last = site.at(-1)!;
    const transactions = await countingTransactions(() =>
      Promise.all([
        // All reported together; the last device's power comes back within the same moment.
        ...site.map((d) => event(d, t, 'powerOff')),
        // The first device reports its power-off twice (a reboot): the same condition, one alarm.
        event(site[0]!, t + 1_000, 'powerOff'),
        event(last, t + 5_000, 'powerOn'),
      ]),
    );
    expect(transactions).toBe(1);

    const records = await recordsOfDevices(site);
    expect(records).toHaveLength(40);
    expect(records.every((r) => r.alarmType === 'powerOff' && r.alarmTime.getTime() === t)).toBe(true);
    // The device whose power came back: its alarm raised, then ended; every other one still open.
    const lastRecord = records.find((r) => r.deviceId === Number(last.id))!;
    expect(lastRecord.endTime?.getTime()).toBe(t + 5_000);
    expect(records.filter((r) => r.endTime === null)).toHaveLength(39);
    // Each raised alarm queued its notification round.
    const notified = await ctx.app.db
      .select()
      .from(alarmNotifications)
      .where(
        inArray(
          alarmNotifications.alarmId,
          records.map((r) => r.id),
        ),
      );
    expect(new Set(notified.map((n) => n.alarmId)).size).toBe(40);
  });

  it('events that fail together are judged again one by one, so one cannot cost the others their alarms', async () => {
    const { site, event } = await powerSite(2);
    const t = Date.now() - 60_000;
    const transactions = await countingTransactions(
      () => Promise.all(site.map((d) => event(d, t, 'powerOff'))),
      1,
    );
    expect(transactions).toBe(3);
    expect((await recordsOfDevices(site)).map((r) => r.alarmType)).toEqual(['powerOff', 'powerOff']);
  });
});
