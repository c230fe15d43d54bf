import { ResolveState } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../test/build-app';
import { type ReceivedMail, startSmtpSink } from '../../test/smtp-sink';
import { grantCredit } from '../delivery/credits.service';
import { startFakeTwilio } from '../delivery/delivery-test-support';
import { sensors } from '../devices/devices.table';
import { addInventory } from '../inventory/inventory.service';
import { users } from '../users/users.table';
import { alarmFixture, manualClock, postReadings, useClockedTestApp } from './alarm-test-support';
import { alarmNotifications, alarmRecords, alarmSettings } from './alarms.table';

const twilio = await startFakeTwilio();
const smtp = await startSmtpSink();
const SID = 'AC0123456789abcdef0123456789abcdef';
const MINUTE = 60_000;
/**
 * The server's clock, held still (on the wall clock's minute: ingest judges a reading late against
 * the wall clock, older than twice the upload interval), so the delay of a late alarm is exact.
 */
const clock = manualClock(Math.floor(Date.now() / MINUTE) * MINUTE);

function nextMessage(socket: import('ws').WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

describe('late alarms, peak and latest values, the default abnormal setting (issue 22 items 5 and 7)', () => {
  const ctx = useClockedTestApp(clock, {
    smtpUrl: smtp.url,
    twilio: { baseUrl: twilio.url, accountSid: SID, authToken: 'secret-token', from: '+15550000001' },
  });
  afterAll(async () => {
    await twilio.close();
    await smtp.close();
  });

  const recordsOf = (deviceId: string, alarmType = 'overLimit') =>
    ctx.app.db
      .select()
      .from(alarmRecords)
      .where(and(eq(alarmRecords.deviceId, Number(deviceId)), eq(alarmRecords.alarmType, alarmType)))
      .orderBy(alarmRecords.id);

  it('an excursion found in back-filled readings is marked late, with the delay, in the record, e-mail, SMS, live message and detail', async () => {
    const f = await alarmFixture(ctx.app);
    await grantCredit(ctx.app.db, f.company.id, 100);
    await ctx.app.db.update(users).set({ phone: '+8613800138009' }).where(eq(users.id, f.company.admin.id));
    expect((await f.save({ channels: ['email', 'sms'] })).body.msgCode).toBe(200);
    const now = clock.now();
    // Live: in range ten minutes ago.
    await postReadings(ctx.app, f.device, [{ ts: now - 10 * MINUTE, v: 5 }]);
    await ctx.app.alarms.idle();

    const socket = await ctx.app.injectWS('/api/ws');
    const bound = nextMessage(socket);
    socket.send(JSON.stringify({ bindType: 2, bindContent: f.token }));
    await bound;
    const pushed = nextMessage(socket);
    // The logger's buffer arrives now: an hour ago it was out of range for two minutes.
    await postReadings(ctx.app, f.device, [
      { ts: now - 60 * MINUTE, v: 9 },
      { ts: now - 59 * MINUTE, v: 11 },
      { ts: now - 58 * MINUTE, v: 5 },
    ]);
    await ctx.app.alarms.idle();

    const [record, ...more] = await recordsOf(f.device.id);
    expect(more).toHaveLength(0);
    expect(record).toMatchObject({
      lateBySeconds: 3600,
      resolveState: ResolveState.Normalized,
      peakValue: 9,
    });
    const live = await pushed;
    expect(live).toMatchObject({
      type: 'alarm',
      bindContent: { alarmId: String(record!.id), lateBySeconds: 3600 },
    });
    socket.terminate();

    const detail = await call(ctx.app, '/api/alarm/alarmDetail', { id: String(record!.id) }, f.as);
    expect(detail.body.data).toMatchObject({ lateBySeconds: 3600 });

    const mail: Promise<ReceivedMail> = smtp.nextMail();
    const sms = twilio.waitForRequests(1);
    await ctx.app.delivery.deliverDue();
    const received = await mail;
    await sms;
    expect(received.text).toContain('Found in data received late (1 h late)');
    expect(received.raw).toMatch(/Subject: \[ColdChain\] Late data: Alarm \(level 1\)/);
    expect(twilio.requests.at(-1)!.form.Body).toMatch(
      /^\[ColdChain\] Found in data received late \(1 h late\): /,
    );
  });

  it('a live alarm keeps the peak and the latest reading apart, above and below the range', async () => {
    const f = await alarmFixture(ctx.app);
    await f.save({});
    // Live readings (a minute apart, the newest now): not late.
    const start = clock.now() - 2 * MINUTE;
    await postReadings(ctx.app, f.device, [
      { ts: start, v: 9 },
      { ts: start + MINUTE, v: 12 },
    ]);
    await postReadings(ctx.app, f.device, [{ ts: start + 2 * MINUTE, v: 10 }]);
    await ctx.app.alarms.idle();
    const [above] = await recordsOf(f.device.id);
    // Raised at 9; 12 the furthest out; 10 the latest.
    expect(above).toMatchObject({ peakValue: 12, lastValue: 10, endTime: null, lateBySeconds: null });

    const g = await alarmFixture(ctx.app, 'Vaccine fridge 2');
    await g.save({});
    await postReadings(ctx.app, g.device, [
      { ts: start, v: 1 },
      { ts: start + MINUTE, v: -3 },
      { ts: start + 2 * MINUTE, v: 0 },
    ]);
    await ctx.app.alarms.idle();
    const [below] = await recordsOf(g.device.id);
    expect(below).toMatchObject({ peakValue: -3, lastValue: 0 });
    const detail = await call(ctx.app, '/api/alarm/alarmDetail', { id: String(below!.id) }, g.as);
    expect(detail.body.data).toMatchObject({ peakValue: -3, lastValue: 0 });
  });

  it('a device added in the console comes with an abnormal setting on its type’s range that notifies who added it', async () => {
    const f = await alarmFixture(ctx.app);
    const serial = `ABN${Date.now().toString(36).toUpperCase()}`;
    await addInventory(ctx.app.db, [
      {
        serial,
        model: 'CC-TEST',
        version: 'standard',
        channels: [{ ch: 1, type: 'temperature', unit: '°C', min: -30, max: 50 }],
      },
    ]);
    const added = await call<{ id: string; deviceKey: string }>(
      ctx.app,
      '/api/device/addDevice',
      { serial, name: 'Freezer 9' },
      f.as,
    );
    expect(added.body.msgCode).toBe(200);
    const deviceId = Number(added.body.data.id);
    const settings = await ctx.app.db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.deviceId, deviceId));
    expect(settings).toEqual([
      expect.objectContaining({
        carrier: 'device',
        alarmType: 'abnormal',
        min: null,
        max: null,
        enabled: true,
        notifierIds: [f.company.admin.id],
        channels: ['email'],
      }),
    ]);

    // A value inside the type's range raises nothing; one beyond it is a device abnormal alarm.
    const device = { serial, deviceKey: added.body.data.deviceKey };
    const now = clock.now();
    await postReadings(ctx.app, device, [{ ts: now - 2 * MINUTE, v: 45 }]);
    await ctx.app.alarms.idle();
    expect(await recordsOf(String(deviceId), 'abnormal')).toEqual([]);
    await postReadings(ctx.app, device, [{ ts: now - MINUTE, v: 60 }]);
    await ctx.app.alarms.idle();
    const [abnormal] = await recordsOf(String(deviceId), 'abnormal');
    expect(abnormal).toMatchObject({ lastValue: 60, resolveState: ResolveState.Pending });
    const [sensor] = await ctx.app.db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
    expect(abnormal!.sensorId).toBe(sensor!.id);
    const outbox = await ctx.app.db
      .select()
      .from(alarmNotifications)
      .where(eq(alarmNotifications.alarmId, abnormal!.id));
    expect(outbox.map((n) => `${n.userId}:${n.channel}`)).toEqual([`${f.company.admin.id}:email`]);
  });
});
