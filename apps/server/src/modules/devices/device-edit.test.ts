import type { ChainVerification, DeviceView, EditDeviceRequest, Page } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDepartment, buildDevice, login } from '../../test/factories';
import { everyStatementOf } from '../../test/statement-log';
import { auditLog } from '../audit/audit.table';
import { editDevice } from './device-edit.service';
import { editableOf } from './devices.service';
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

/**
 * The console's form sends the device's department and group back: a whole-company caller's edit
 * that keeps them is one statement that reads the device itself (`editDeviceInPlace`), its
 * `before` built in SQL as canonical JSON.
 */
describe('a device edit that keeps the device where it is', () => {
  const ctx = useTestApp();

  /** The device's row as stored. */
  async function storedDevice(id: string) {
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(id)));
    return row!;
  }

  /** The company's device edits in chain order, with what each recorded. */
  async function editsOf(companyId: number) {
    const entries = await ctx.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.companyId, companyId))
      .orderBy(auditLog.seq);
    return entries.filter((e) => e.action === 'device.edit');
  }

  it('records the device as it was, whatever its text holds, and the next edit starts from it', async () => {
    const company = await buildCompany(ctx.app.db);
    const ward = await buildDepartment(ctx.app.db, company.id, { name: 'Ward' });
    const device = await buildDevice(ctx.app.db, company.id, { departmentId: ward.id });
    const token = await login(ctx.app, company.admin.account);
    const original = await storedDevice(device.id);
    // Text PostgreSQL and JavaScript must escape alike: quotes, backslashes, control characters,
    // line separators, characters outside the basic plane.
    const awkward = 'a"b\\c\u0001\u001f\t\n\r\u007f\u2028 冷链 🧊 </script>';
    const place = { departmentId: String(ward.id), groupId: null };
    for (const [name, remark] of [
      [awkward, awkward],
      ['Fridge 5', ''],
    ]) {
      const { result, statements } = await everyStatementOf(ctx.app.db, () =>
        call<DeviceView>(
          ctx.app,
          '/api/device/editDevice',
          { ...editOf(device.id, name!), ...place, remark },
          { token },
        ),
      );
      expect(result.body.data).toMatchObject({ id: device.id, name, remark, departmentId: String(ward.id) });
      // The caller's authentication aside, one statement.
      expect(statements.filter((s) => !/json_build_object\(\s*'sessionId'/.test(s))).toHaveLength(1);
    }
    const [first, second] = await editsOf(company.id);
    expect(first!.before).toEqual(editableOf(original));
    expect(first!.after).toMatchObject({ name: awkward, remark: awkward });
    expect(second!.before).toEqual(first!.after);
    const chain = await call<ChainVerification>(ctx.app, '/api/audit/verifyChain', {}, { token });
    expect(chain.body.data).toEqual({ ok: true, checked: 3, problems: [] });
  });

  it('goes the long way for an edit that moves the device, and checks the new place', async () => {
    const company = await buildCompany(ctx.app.db);
    const [ward, lab] = [
      await buildDepartment(ctx.app.db, company.id, { name: 'Ward' }),
      await buildDepartment(ctx.app.db, company.id, { name: 'Lab' }),
    ];
    const other = await buildCompany(ctx.app.db);
    const elsewhere = await buildDepartment(ctx.app.db, other.id, { name: 'Not ours' });
    const device = await buildDevice(ctx.app.db, company.id, { departmentId: ward.id });
    const token = await login(ctx.app, company.admin.account);
    const original = await storedDevice(device.id);
    const moved = await call<DeviceView>(
      ctx.app,
      '/api/device/editDevice',
      { ...editOf(device.id, 'Moved'), departmentId: String(lab.id), groupId: null },
      { token },
    );
    expect(moved.body.data).toMatchObject({ name: 'Moved', departmentId: String(lab.id) });
    const refused = await call(
      ctx.app,
      '/api/device/editDevice',
      { ...editOf(device.id, 'Away'), departmentId: String(elsewhere.id), groupId: null },
      { token, language: 'cn' },
    );
    expect(refused.body.msgContent).toBe('暂无该服务或操作的权限');
    const [edit] = await editsOf(company.id);
    expect(edit!.before).toEqual(editableOf(original));
    expect(edit!.after).toMatchObject({ departmentId: lab.id, name: 'Moved' });
    expect(await editsOf(company.id)).toHaveLength(1);
  });

  it('refuses another company’s device and a device not there, writing nothing', async () => {
    const company = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    const theirs = await buildDevice(ctx.app.db, other.id);
    const token = await login(ctx.app, company.admin.account);
    const before = await storedDevice(theirs.id);
    for (const [id, language, message] of [
      [theirs.id, 'en', 'The device does not exist'],
      ['999999999', 'cn', '设备不存在'],
    ] as const) {
      const { body } = await call(
        ctx.app,
        '/api/device/editDevice',
        { ...editOf(id, 'Taken'), departmentId: null, groupId: null },
        { token, language },
      );
      expect(body.msgContent).toBe(message);
    }
    const untouched = await storedDevice(theirs.id);
    expect(untouched).toEqual(before);
    expect(await editsOf(other.id)).toHaveLength(0);
    expect(await editsOf(company.id)).toHaveLength(0);
  });

  it('records for each of many edits of one device at once the edit before it', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const original = await storedDevice(device.id);
    const place = {
      departmentId: original.departmentId === null ? null : String(original.departmentId),
      groupId: null,
    };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(ctx.app, '/api/device/editDevice', { ...editOf(device.id, `Edit ${i}`), ...place }, { token }),
      ),
    );
    expect(answers.map((a) => a.body.msgContent)).toEqual(answers.map(() => 'success'));
    const edits = await editsOf(company.id);
    expect(edits).toHaveLength(12);
    // On PostgreSQL the edits wait for each other's row: each reads what the one before it wrote.
    expect(edits[0]!.before).toEqual(editableOf(original));
    for (let i = 1; i < edits.length; i++) expect(edits[i]!.before, `edit ${i}`).toEqual(edits[i - 1]!.after);
    const stored = await storedDevice(device.id);
    expect(edits.at(-1)!.after).toEqual(editableOf(stored));
  });
});
