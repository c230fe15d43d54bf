import { ChannelState, DeviceState, type DeviceView, type HistoryData } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
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
import { alarmFixture, postReadings } from '../alarms/alarm-test-support';
import { alarmRecords } from '../alarms/alarms.table';
import { auditLog } from '../audit/audit.table';
import { channelState } from './channel-state';
import { devices } from './devices.table';

describe('sensor remarks and channel state (spec sections 3-4)', () => {
  const ctx = useTestApp();

  it('names a channel, gives it remarks and switches it off; the detail shows all three and the audit trail records it', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const sensorId = String(device.sensors[0]!.id);
    const saved = await call<DeviceView>(
      ctx.app,
      '/api/device/editSensor',
      { id: sensorId, name: 'Top shelf probe', remark: 'Probe taped to the vaccine box', enabled: false },
      { token },
    );
    expect(saved.body.msgCode).toBe(200);
    const detail = await call<DeviceView>(ctx.app, '/api/device/deviceDetail', { id: device.id }, { token });
    expect(detail.body.data.sensors[0]).toMatchObject({
      id: sensorId,
      name: 'Top shelf probe',
      remark: 'Probe taped to the vaccine box',
      enabled: false,
      state: ChannelState.Disabled,
    });
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'sensor.edit')));
    expect(entry).toMatchObject({ userId: company.admin.id, targetId: device.id });
  });

  it('names the bad field in the caller’s language and finds no sensor outside the caller’s reach', async () => {
    const company = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    const foreign = await buildDevice(ctx.app.db, other.id);
    const token = await login(ctx.app, company.admin.account);
    const empty = await call(
      ctx.app,
      '/api/device/editSensor',
      { id: String(foreign.sensors[0]!.id), name: ' ', enabled: true },
      { token, language: 'cn' },
    );
    expect(empty.body).toEqual({ msgCode: 500, msgContent: '名称不能为空', data: null });
    const noFlag = await call(ctx.app, '/api/device/editSensor', { id: '1', name: 'x' }, { token });
    expect(noFlag.body.msgContent).toMatch(/^Enabled /);
    const foreignEdit = await call(
      ctx.app,
      '/api/device/editSensor',
      { id: String(foreign.sensors[0]!.id), name: 'Mine now', enabled: false },
      { token },
    );
    expect(foreignEdit.body).toEqual({ msgCode: 500, msgContent: 'The sensor does not exist', data: null });

    // An editor of one department may not change a sensor of a device of another.
    const ward = await buildDepartment(ctx.app.db, company.id, { name: 'Ward' });
    const wardRole = await buildRole(ctx.app.db, company.id, ward.id, ['device:view', 'device:edit']);
    const editor = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, editor.id, false, { departmentId: ward.id, roleId: wardRole.id });
    const rootDevice = await buildDevice(ctx.app.db, company.id);
    const wardDevice = await buildDevice(ctx.app.db, company.id, { departmentId: ward.id });
    const editorToken = await login(ctx.app, editor.account);
    const edit = (sensorId: number) =>
      call(
        ctx.app,
        '/api/device/editSensor',
        { id: String(sensorId), name: 'Door probe', enabled: true },
        { token: editorToken },
      );
    expect((await edit(rootDevice.sensors[0]!.id)).body.msgContent).toBe('The sensor does not exist');
    expect((await edit(wardDevice.sensors[0]!.id)).body.msgCode).toBe(200);
  });

  it('a disabled channel’s readings are stored but raise no alarm; enabled again, it alarms', async () => {
    const f = await alarmFixture(ctx.app);
    expect((await f.save({ delaySeconds: 0, channels: ['email'] })).body.msgCode).toBe(200);
    const edit = (enabled: boolean) =>
      call(
        ctx.app,
        '/api/device/editSensor',
        { id: String(f.sensor.id), name: 'Probe', enabled },
        { token: f.token },
      );
    expect((await edit(false)).body.msgCode).toBe(200);
    const t0 = Date.now() - 60_000;
    expect(
      (
        await postReadings(ctx.app, f.device, [
          { ts: t0, v: 20 },
          { ts: t0 + 10_000, v: 21 },
        ])
      ).statusCode,
    ).toBe(200);
    const history = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId: String(f.sensor.id), startTime: t0 - 1, endTime: Date.now() },
      { token: f.token },
    );
    expect(history.body.data.points.map(([, v]) => v)).toEqual([20, 21]);
    const alarms = () =>
      ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.companyId, f.company.id));
    expect(await alarms()).toEqual([]);

    expect((await edit(true)).body.msgCode).toBe(200);
    await postReadings(ctx.app, f.device, [{ ts: t0 + 20_000, v: 22 }]);
    expect(await alarms()).toHaveLength(1);
    const detail = await call<DeviceView>(
      ctx.app,
      '/api/device/deviceDetail',
      { id: f.device.id },
      { token: f.token },
    );
    expect(detail.body.data.sensors[0]!.state).toBe(ChannelState.Alarm);
  });

  it('switching a channel off ends its open alarm with a reason, audited, not as normalized', async () => {
    const f = await alarmFixture(ctx.app);
    expect((await f.save({ delaySeconds: 0, channels: ['email'] })).body.msgCode).toBe(200);
    await postReadings(ctx.app, f.device, [{ ts: Date.now() - 30_000, v: 22 }]);
    const [open] = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.companyId, f.company.id));
    expect(open!.endTime).toBeNull();

    const off = await call<DeviceView>(
      ctx.app,
      '/api/device/editSensor',
      { id: String(f.sensor.id), name: 'Probe', enabled: false },
      { token: f.token },
    );
    expect(off.body.msgCode).toBe(200);
    const [ended] = await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.id, open!.id));
    expect(ended!.endTime).not.toBeNull();
    expect(ended!.endReason).toBe('channelDisabled');
    expect(ended!.endedBy).toBe(f.company.admin.id);
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarm.endByRule'), eq(auditLog.targetId, String(open!.id))));
    expect(audit).toHaveLength(1);
    // The device no longer counts as alarming.
    const detail = await call<DeviceView>(
      ctx.app,
      '/api/device/deviceDetail',
      { id: f.device.id },
      { token: f.token },
    );
    expect(detail.body.data.sensors[0]!.state).toBe(ChannelState.Disabled);
    const [device] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(f.device.id)));
    expect(device!.state).toBe(DeviceState.Normal);
  });
  it('derives the channel state from the device, the open excursion and the range', async () => {
    const probe = { enabled: true, value: 5, rangeMin: -40, rangeMax: 85 };
    expect(channelState(1, probe, false)).toBe(ChannelState.Normal);
    expect(channelState(2, probe, true)).toBe(ChannelState.Alarm);
    expect(channelState(1, { ...probe, value: 120 }, false)).toBe(ChannelState.Abnormal);
    expect(channelState(4, probe, true)).toBe(ChannelState.Offline);
    expect(channelState(1, { ...probe, value: null }, false)).toBe(ChannelState.Offline);
    expect(channelState(5, probe, false)).toBe(ChannelState.Service);
    expect(channelState(2, { ...probe, enabled: false }, true)).toBe(ChannelState.Disabled);

    // The list call carries the same state as the detail.
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const page = await call<{ list: DeviceView[] }>(ctx.app, '/api/device/pageDevices', {}, { token });
    expect(page.body.data.list[0]!.sensors[0]).toMatchObject({ state: ChannelState.Offline, remark: '' });
    await ctx.app.db
      .update(devices)
      .set({ state: 5 })
      .where(eq(devices.id, Number(device.id)));
    const again = await call<{ list: DeviceView[] }>(ctx.app, '/api/device/pageDevices', {}, { token });
    expect(again.body.data.list[0]!.sensors[0]!.state).toBe(ChannelState.Service);
  });
});
