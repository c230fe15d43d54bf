import type { AlarmSnapshotView } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { alarmFixture, postReadings } from '../alarms/alarm-test-support';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { companies } from '../companies/companies.table';
import { grantCredit } from '../delivery/credits.service';
import { FAKE_APP_KEY, FAKE_APP_SECRET, startFakeEzviz } from './fake-ezviz';

const ezviz = await startFakeEzviz();
const smtp = await startSmtpSink();
process.env.EZVIZ_BASE_URL = ezviz.url;
process.env.CAMERA_ALLOW_HOSTS = '127.0.0.1';
// A hanging camera is given up after this long; the alarm never waits for it at all.
process.env.CAMERA_SNAPSHOT_TIMEOUT_MS = '1500';

describe('a picture with every alarm', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000, smtpUrl: smtp.url });
  afterAll(async () => {
    await ezviz.close();
    await smtp.close();
  });

  /** A fridge with a 2-8 °C e-mail rule, watched by an EZVIZ camera (through its equipment, or the monitor). */
  async function watchedFridge(watch: 'monitor' | 'equipment' = 'monitor') {
    const f = await alarmFixture(ctx.app, 'Vaccine fridge with camera');
    // The fixture's company gets the camera service; a new login reads it.
    await ctx.app.db
      .update(companies)
      .set({ services: ['service:camera', 'service:alarmEmail'] })
      .where(eq(companies.id, f.company.id));
    f.as.token = await login(ctx.app, f.company.admin.account);
    await grantCredit(ctx.app.db, f.company.id, 50);
    expect((await f.save({ channels: ['email'] })).body.msgCode).toBe(200);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, f.as);
    const account = await post<{ id: string }>('/api/camera/savePlatformAccount', {
      name: 'EZVIZ',
      platform: 'ezviz',
      appKey: FAKE_APP_KEY,
      appSecret: FAKE_APP_SECRET,
    });
    expect(account.body.msgCode).toBe(200);
    let watched: Record<string, string[]> = { deviceIds: [f.device.id] };
    if (watch === 'equipment') {
      const type = await post<{ id: string }>('/api/equipmentType/saveType', {
        name: 'Fridge',
        code: '5',
        attributes: [],
      });
      const equipment = await post<{ id: string }>('/api/equipment/saveEquipment', {
        typeId: type.body.data.id,
        serialSuffix: '0001',
        name: 'Pharmacy fridge',
        sensorIds: [String(f.sensor.id)],
      });
      expect(equipment.body.msgCode).toBe(200);
      watched = { equipmentIds: [equipment.body.data.id] };
    }
    const camera = await post<{ id: string }>('/api/camera/saveCamera', {
      name: 'Fridge camera',
      serial: 'E10001',
      platformAccountId: account.body.data.id,
      ...watched,
    });
    expect(camera.body.msgCode).toBe(200);
    return { ...f, post };
  }

  /** Readings that go out of range at `start` (one new excursion), then the engine's work is done. */
  async function raiseAlarm(f: Awaited<ReturnType<typeof watchedFridge>>, start: number) {
    await postReadings(ctx.app, f.device, [{ ts: start - 60_000, v: 5 }]);
    await postReadings(ctx.app, f.device, [{ ts: start, v: 12 }]);
    await ctx.app.ingest.idle();
    await ctx.app.alarms.idle();
    const records = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(f.device.id)));
    return records.sort((a, b) => b.id - a.id)[0]!;
  }

  it('attaches the camera picture, and the alarm e-mail links to it', async () => {
    const f = await watchedFridge();
    const alarm = await raiseAlarm(f, Date.now() - 30 * 60_000);
    await ctx.app.cameras.snapshots.idle();
    const shots = await f.post<AlarmSnapshotView[]>('/api/camera/alarmSnapshots', {
      alarmId: String(alarm.id),
    });
    expect(shots.body.data).toEqual([
      expect.objectContaining({
        cameraName: 'Fridge camera',
        state: 'ok',
        error: '',
        imageUrl: expect.stringMatching(/^\/files\/[a-f0-9]{32}\.jpg$/),
      }),
    ]);
    expect(ezviz.requests.find((r) => r.path === '/api/lapp/device/capture')?.form).toMatchObject({
      deviceSerial: 'E10001',
      channelNo: '1',
    });
    const image = await ctx.app.inject({ method: 'GET', url: shots.body.data[0]!.imageUrl! });
    expect(image.headers['content-type']).toBe('image/jpeg');

    await ctx.app.delivery.deliverDue();
    const mail = await smtp.nextMail();
    const link = /Camera picture: \S+(\/api\/camera\/alarmPicture\/\S+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    // The HTML part shows the picture itself through the same link.
    expect(mail.html).toContain(`<img src="http://`);
    expect(mail.html).toContain(`${link}"`);
    expect(mail.html).toContain('Vaccine fridge with camera');
    const followed = await ctx.app.inject({ method: 'GET', url: link! });
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe(shots.body.data[0]!.imageUrl);
    // A token made up or altered opens nothing.
    expect((await ctx.app.inject({ method: 'GET', url: `${link!.slice(0, -3)}abc` })).statusCode).toBe(404);
  });

  it('takes the picture for an alarm on a sensor of equipment the camera watches', async () => {
    const f = await watchedFridge('equipment');
    const alarm = await raiseAlarm(f, Date.now() - 40 * 60_000);
    await ctx.app.cameras.snapshots.idle();
    const shots = await f.post<AlarmSnapshotView[]>('/api/camera/alarmSnapshots', {
      alarmId: String(alarm.id),
    });
    expect(shots.body.data).toEqual([expect.objectContaining({ cameraName: 'Fridge camera', state: 'ok' })]);
    await ctx.app.delivery.deliverDue();
    const mail = await smtp.nextMail();
    expect(mail.text).toMatch(/Camera picture: \S+\/api\/camera\/alarmPicture\//);
  });

  it('sends the alarm while the camera hangs, and records why the picture failed', async () => {
    const f = await watchedFridge();
    ezviz.state.capture = 'hang';
    const started = Date.now();
    const alarm = await raiseAlarm(f, Date.now() - 20 * 60_000);
    // The alarm and its notification are committed before any picture is there.
    const outbox = await ctx.app.db
      .select()
      .from(alarmNotifications)
      .where(eq(alarmNotifications.alarmId, alarm.id));
    expect(outbox.length).toBeGreaterThan(0);
    await ctx.app.delivery.deliverDue();
    const mail = await smtp.nextMail();
    expect(mail.text).toContain('Vaccine fridge with camera');
    expect(Date.now() - started).toBeLessThan(1500);
    const pending = await f.post<AlarmSnapshotView[]>('/api/camera/alarmSnapshots', {
      alarmId: String(alarm.id),
    });
    expect(pending.body.data.map((s) => s.state)).toEqual(['pending']);

    await ctx.app.cameras.snapshots.idle();
    const failed = await f.post<AlarmSnapshotView[]>('/api/camera/alarmSnapshots', {
      alarmId: String(alarm.id),
    });
    expect(failed.body.data).toEqual([
      expect.objectContaining({ state: 'failed', imageUrl: null, error: 'no picture within 1500 ms' }),
    ]);

    // A refusing platform: the reason is kept, and the alarm went out all the same.
    ezviz.state.capture = 'fail';
    const refused = await raiseAlarm(f, Date.now() - 10 * 60_000);
    await ctx.app.cameras.snapshots.idle();
    const shots = await f.post<AlarmSnapshotView[]>('/api/camera/alarmSnapshots', {
      alarmId: String(refused.id),
    });
    expect(shots.body.data[0]).toMatchObject({ state: 'failed', error: 'EZVIZ 20007: device offline' });
    await ctx.app.delivery.deliverDue();
    expect((await smtp.nextMail()).text).toContain('Vaccine fridge with camera');
    ezviz.state.capture = 'ok';
  });
});
