import type { ChainVerification, DeviceView, EditDeviceRequest, Page } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { editDevice } from './device-edit.service';
import { devices } from './devices.table';

interface OperationEntry {
  action: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A full edit as the console's form sends it, every setting changed from the factory's. */
function editOf(id: string, name: string) {
  return {
    id,
    name,
    recordInterval: 120,
    uploadInterval: 600,
    alarmVerifyInterval: 240,
    offlineJudgement: 5,
    hostAddress: '10.0.0.7',
    subAddress: '3',
    remark: '冷链 "door" \\ seal',
    region: 'Ward 4',
    address: 'Building B, room 12',
  };
}

/**
 * An edit is one statement: the update, its audit entry and the answer (device-edit.service.ts).
 * What each part used to be checked by on its own is checked here against the one statement.
 */
describe('a device edit in one statement', () => {
  const ctx = useTestApp();

  it('records what the update wrote and answers the device as its detail shows it', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id, {
      channels: [
        { type: 'temperature', unit: '°C', min: -40, max: 85 },
        { type: 'humidity', unit: '%RH', min: 0, max: 100 },
      ],
    });
    const token = await login(ctx.app, company.admin.account);
    const edited = await call<DeviceView>(ctx.app, '/api/device/editDevice', editOf(device.id, 'Fridge 4'), {
      token,
    });
    expect(edited.body.msgContent).toBe('success');
    const detail = await call<DeviceView>(ctx.app, '/api/device/deviceDetail', { id: device.id }, { token });
    // The detail adds what each sensor measures; everything else is the same device, sensors in order.
    const { sensors, ...rest } = detail.body.data;
    expect(edited.body.data).toEqual({
      ...rest,
      sensors: sensors.map(({ equipment: _equipment, ...sensor }) => sensor),
    });
    expect(edited.body.data.sensors.map((s) => s.channel)).toEqual([1, 2]);

    const [stored] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(device.id)));
    const log = await call<Page<OperationEntry>>(ctx.app, '/api/audit/pageOperationLog', {}, { token });
    const entry = log.body.data.list.find((e) => e.action === 'device.edit');
    expect(entry?.targetId).toBe(device.id);
    // The entry's "after" is what the row holds now, field by field, and its "before" what it held.
    expect(entry?.after).toEqual({
      name: stored!.name,
      departmentId: stored!.departmentId,
      groupId: stored!.groupId,
      recordInterval: stored!.recordIntervalS,
      uploadInterval: stored!.uploadIntervalS,
      alarmVerifyInterval: stored!.alarmVerifyIntervalS,
      offlineJudgement: stored!.offlineJudgement,
      hostAddress: stored!.hostAddress,
      subAddress: stored!.subAddress,
      remark: stored!.remark,
      region: stored!.region,
      address: stored!.address,
    });
    expect(entry?.after).toMatchObject({
      name: 'Fridge 4',
      remark: '冷链 "door" \\ seal',
      offlineJudgement: 5,
    });
    expect(entry?.before).toMatchObject({ recordInterval: 300, remark: '', hostAddress: '' });
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(chain.body.data).toMatchObject({ ok: true, problems: [] });
  });

  it('keeps one gap-free chain when a company’s devices are edited at the same time', async () => {
    const company = await buildCompany(ctx.app.db);
    const fleet = await Promise.all(Array.from({ length: 8 }, () => buildDevice(ctx.app.db, company.id)));
    const token = await login(ctx.app, company.admin.account);
    const answers = await Promise.all(
      fleet.flatMap((device, i) => [
        call(ctx.app, '/api/device/editDevice', editOf(device.id, `Freezer ${i}`), { token }),
        call(ctx.app, '/api/device/setRemark', { id: device.id, remark: `checked ${i}` }, { token }),
      ]),
    );
    expect(answers.map((a) => a.body.msgContent)).toEqual(answers.map(() => 'success'));
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    // Eight additions, eight edits, eight remarks.
    expect(chain.body.data).toEqual({ ok: true, checked: 24, problems: [] });
  });

  it('writes and records nothing when the device is gone by the time of the update', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(device.id)));
    const actor = { companyId: company.id, userId: company.admin.id, ip: '127.0.0.1' };
    const input = editOf(device.id, 'Ghost') as EditDeviceRequest;
    // The row as the route found it, then removed before the edit's statement runs.
    const gone = { ...row!, id: row!.id + 1_000_000 };
    await expect(
      editDevice(ctx.app.db, actor, gone, input, { departmentId: row!.departmentId, groupId: null }),
    ).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    const entries = await ctx.app.db.select().from(auditLog).where(eq(auditLog.companyId, company.id));
    expect(entries.map((e) => e.action)).toEqual(['device.add']);
    const [unchanged] = await ctx.app.db.select().from(devices).where(eq(devices.id, row!.id));
    expect(unchanged!.name).toBe(row!.name);
  });
});
