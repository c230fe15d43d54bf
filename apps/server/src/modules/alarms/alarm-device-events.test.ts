import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { devices } from '../devices/devices.table';
import { sweepOfflineDevices } from '../telemetry/offline-sweep';
import { alarmFixture, postEvent } from './alarm-test-support';
import { alarmNotifications, alarmRecords } from './alarms.table';

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
});
