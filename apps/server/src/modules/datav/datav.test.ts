import type { ScreenOverview, UserCompany } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
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
import { alarmRecords } from '../alarms/alarms.table';
import { devices, sensors } from '../devices/devices.table';
import { createNotice } from '../notices/notices.service';

type Device = Awaited<ReturnType<typeof buildDevice>>;

describe('data screens (/api/datav/*, /api/index/getNotice)', () => {
  const ctx = useTestApp();
  const tokens = {} as Record<'admin' | 'pharmacy' | 'noData' | 'dataOnly' | 'other', string>;
  let otherCompanyId: number;
  let pharmacyId: number;
  let fridge: Device;
  let store: Device;
  let foreign: Device;
  let alarmId: string;
  let storeAlarmId: string;

  async function raise(companyOf: number, device: Device, channel: number, minutesAgo: number, state = 1) {
    const now = Date.now();
    const [record] = await ctx.app.db
      .insert(alarmRecords)
      .values({
        companyId: companyOf,
        deviceId: Number(device.id),
        sensorId: device.sensors[channel - 1]!.id,
        alarmType: 'overLimit',
        level: 2,
        alarmTime: new Date(now - minutesAgo * 60_000),
        excursionStart: new Date(now - minutesAgo * 60_000),
        dedupeKey: `screen:${device.id}:${channel}:${minutesAgo}`,
        content: { en: 'Too warm', cn: '温度过高' },
        lastValue: 9.5,
        resolveState: state,
        ...(state === 3 ? { resolveTime: new Date(now - 60_000) } : {}),
      })
      .returning();
    return String(record!.id);
  }

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db, { name: 'Screen Hospital', services: ['service:dataScreen'] });
    const other = await buildCompany(db, { name: 'Other Clinic', services: ['service:dataScreen'] });
    otherCompanyId = other.id;
    const pharmacy = await buildDepartment(db, company.id, { name: 'Pharmacy' });
    pharmacyId = pharmacy.id;
    const twoChannels = [
      { type: 'temperature', unit: '°C', min: -40, max: 85 },
      { type: 'humidity', unit: '%RH', min: 0, max: 100 },
    ];
    fridge = await buildDevice(db, company.id, {
      name: 'Vaccine fridge',
      departmentId: pharmacy.id,
      channels: twoChannels,
    });
    store = await buildDevice(db, company.id, { name: 'Store room' });
    foreign = await buildDevice(db, other.id, { name: 'Foreign fridge' });
    await db
      .update(devices)
      .set({ state: 2, lng: 101.7, lat: 3.1 })
      .where(eq(devices.id, Number(fridge.id)));
    await db
      .update(devices)
      .set({ state: 1 })
      .where(eq(devices.id, Number(store.id)));
    await db
      .update(sensors)
      .set({ value: 9.5, updateTime: new Date() })
      .where(eq(sensors.id, fridge.sensors[0]!.id));
    alarmId = await raise(company.id, fridge, 1, 2);
    // In progress is still open; resolved and normalised ones are not.
    storeAlarmId = await raise(company.id, store, 1, 5, 2);
    await raise(company.id, store, 1, 60 * 24, 3);
    await raise(company.id, store, 1, 30, 5);
    await raise(other.id, foreign, 1, 1);

    const text = { en: 'Calibration due', cn: '校准到期' };
    await createNotice(db, {
      companyId: company.id,
      userId: company.admin.id,
      kind: 'reminder',
      title: text,
      content: text,
    });

    const pharmacyRole = await buildRole(db, company.id, pharmacy.id, [
      'data:view',
      'device:view',
      'alarm:view',
    ]);
    const dataOnlyRole = await buildRole(db, company.id, pharmacy.id, ['data:view']);
    const noDataRole = await buildRole(db, company.id, pharmacy.id, ['device:view', 'alarm:view']);
    const members = {
      pharmacy: await buildUser(db),
      dataOnly: await buildUser(db),
      noData: await buildUser(db),
    };
    await addMember(db, company.id, members.pharmacy.id, false, {
      departmentId: pharmacy.id,
      roleId: pharmacyRole.id,
    });
    await addMember(db, company.id, members.dataOnly.id, false, {
      departmentId: pharmacy.id,
      roleId: dataOnlyRole.id,
    });
    await addMember(db, company.id, members.noData.id, false, {
      departmentId: pharmacy.id,
      roleId: noDataRole.id,
    });
    tokens.admin = await login(ctx.app, company.admin.account);
    tokens.other = await login(ctx.app, other.admin.account);
    tokens.pharmacy = await login(ctx.app, members.pharmacy.account);
    tokens.dataOnly = await login(ctx.app, members.dataOnly.account);
    tokens.noData = await login(ctx.app, members.noData.account);
  });

  const overview = (who: keyof typeof tokens, body: unknown = {}, language: 'en' | 'cn' = 'en') =>
    call<ScreenOverview>(ctx.app, '/api/datav/screenOverview', body, { token: tokens[who], language });

  it('paints the whole screen for a company administrator, from the company in scope only', async () => {
    const { body } = await overview('admin');
    expect(body.msgCode).toBe(200);
    const data = body.data;
    expect(data.companyName).toBe('Screen Hospital');
    expect(data.deviceCount).toBe(2);
    expect(data.deviceStates).toMatchObject({ '1': 1, '2': 1, '4': 0 });
    expect(data.openAlarmTotal).toBe(2);
    // Newest first, named by device, department and channel; the other company's alarm is absent.
    expect(data.openAlarms.map((a) => a.id)).toEqual([alarmId, storeAlarmId]);
    expect(data.openAlarms[0]).toMatchObject({
      deviceName: 'Vaccine fridge',
      departmentName: 'Pharmacy',
      channelName: fridge.sensors[0]!.name,
      alarmType: 'overLimit',
      level: 2,
      content: { en: 'Too warm', cn: '温度过高' },
      lastValue: 9.5,
    });
    expect(typeof data.openAlarms[0]!.alarmTime).toBe('number');
    // Sensors: those with an open alarm first, then by device name and channel.
    expect(data.sensors.map((s) => [s.deviceName, s.channel, s.alarming])).toEqual([
      ['Store room', 1, true],
      ['Vaccine fridge', 1, true],
      ['Vaccine fridge', 2, false],
    ]);
    expect(data.sensors.find((s) => s.id === String(fridge.sensors[0]!.id))).toMatchObject({
      value: 9.5,
      unit: '°C',
    });
    // Devices for the floor view, with their open alarms and position.
    expect(data.devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: fridge.id,
          state: 2,
          lng: 101.7,
          lat: 3.1,
          openAlarms: 1,
          departmentId: String(pharmacyId),
        }),
        expect.objectContaining({ id: store.id, state: 1, openAlarms: 1 }),
      ]),
    );
    expect(data.devices.some((d) => d.id === foreign.id)).toBe(false);
    // Departments: the root (store room) and the pharmacy (fridge).
    const pharmacy = data.departments.find((d) => d.name === 'Pharmacy')!;
    expect(pharmacy).toMatchObject({ deviceCount: 1, onlineCount: 1, openAlarms: 1, level: 2 });
    const root = data.departments.find((d) => d.pid === '0')!;
    expect(root).toMatchObject({ name: 'Screen Hospital', deviceCount: 1, openAlarms: 1 });
    // Trend: 7 UTC days, today last; every alarm raised in them counts, closed or not (4), and
    // the one resolved a minute ago as resolved.
    expect(data.trend).toHaveLength(7);
    expect(data.trend.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(data.trend.reduce((sum, d) => sum + d.alarms, 0)).toBe(4);
    expect(data.trend.reduce((sum, d) => sum + d.resolved, 0)).toBe(1);
    expect(data.equipmentStates).toMatchObject({ total: 0 });
  });

  it('keeps a department member to their department', async () => {
    const { body } = await overview('pharmacy');
    expect(body.msgCode).toBe(200);
    expect(body.data.deviceCount).toBe(1);
    expect(body.data.openAlarms.map((a) => a.id)).toEqual([alarmId]);
    expect(body.data.openAlarmTotal).toBe(1);
    expect(body.data.departments.map((d) => d.name)).toEqual(['Pharmacy']);
    expect(body.data.devices.map((d) => d.id)).toEqual([fridge.id]);
    expect(body.data.sensors.every((s) => s.deviceId === fridge.id)).toBe(true);
    expect(body.data.equipmentStates).toBeNull();
  });

  it('shows figures only for the rights held: data:view alone gives the frame without devices or alarms', async () => {
    const { body } = await overview('dataOnly');
    expect(body.msgCode).toBe(200);
    expect(body.data).toMatchObject({
      deviceCount: 0,
      openAlarms: [],
      openAlarmTotal: 0,
      sensors: [],
      devices: [],
    });
    expect(body.data.trend.every((d) => d.alarms === 0)).toBe(true);
  });

  it('refuses callers without data:view, anonymous callers and a foreign company', async () => {
    for (const url of ['/api/datav/screenOverview', '/api/datav/getUserCompanys', '/api/index/getNotice']) {
      const refused = await call(ctx.app, url, {}, { token: tokens.noData, language: 'en' });
      expect(refused.body.msgCode, url).toBe(500);
      expect(refused.body.msgContent).toMatch(/permission/i);
      expect((await call(ctx.app, url, {})).body.msgCode, url).toBe(311);
      const foreignCompany = await call(ctx.app, url, {}, { token: tokens.admin, companyId: otherCompanyId });
      expect(foreignCompany.body.msgCode, url).toBe(500);
      expect(foreignCompany.body.data).toBeNull();
    }
  });

  it('shows the chosen sensors in the order chosen, never another company’s', async () => {
    const chosen = [fridge.sensors[1]!.id, foreign.sensors[0]!.id, store.sensors[0]!.id].map(String);
    const { body } = await overview('admin', { sensorIds: chosen, trendDays: 30 });
    expect(body.msgCode).toBe(200);
    expect(body.data.sensors.map((s) => s.id)).toEqual([chosen[0], chosen[2]]);
    expect(body.data.trend).toHaveLength(30);
    // The other company's administrator does not see this company's sensors either.
    const other = await overview('other', { sensorIds: chosen });
    expect(other.body.data.sensors.map((s) => s.id)).toEqual([String(foreign.sensors[0]!.id)]);
    expect(other.body.data.openAlarms.map((a) => a.deviceId)).toEqual([foreign.id]);
  });

  it('names the field of bad input in the request language', async () => {
    const badDays = await overview('admin', { trendDays: 9 }, 'cn');
    expect(badDays.body.msgCode).toBe(500);
    expect(badDays.body.msgContent).toContain('报警趋势周期');
    const badIds = await overview('admin', { sensorIds: ['x'] });
    expect(badIds.body.msgCode).toBe(500);
    expect(badIds.body.msgContent).toContain('Sensors on the screen');
    const tooMany = await overview('admin', {
      sensorIds: Array.from({ length: 49 }, (_, i) => String(i + 1)),
    });
    expect(tooMany.body.msgCode).toBe(500);
  });

  it('lists the caller’s companies and newest notices for the screen', async () => {
    const companies = await call<UserCompany[]>(
      ctx.app,
      '/api/datav/getUserCompanys',
      {},
      { token: tokens.admin },
    );
    expect(companies.body.data.map((c) => c.name)).toEqual(['Screen Hospital']);
    const notices = await call<{ list: { title: string }[]; total: number }>(
      ctx.app,
      '/api/index/getNotice',
      { pageSize: 3 },
      { token: tokens.admin, language: 'cn' },
    );
    expect(notices.body.msgCode).toBe(200);
    expect(notices.body.data.list.map((n) => n.title)).toEqual(['校准到期']);
    const none = await call<{ total: number }>(
      ctx.app,
      '/api/index/getNotice',
      {},
      { token: tokens.pharmacy },
    );
    expect(none.body.data.total).toBe(0);
    const bad = await call(ctx.app, '/api/index/getNotice', { pageSize: 500 }, { token: tokens.admin });
    expect(bad.body.msgCode).toBe(500);
    expect(bad.body.msgContent).toContain('Number of notices');
  });
});
