import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildDepartment, buildDevice, buildRole, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { alarmExportLimits } from './alarm-export';
import { alarmFixture, savedByTest } from './alarm-test-support';
import { alarmRecords, alarmSettings } from './alarms.table';

const START = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

async function auditCount(app: FastifyInstance, companyId: number, action: string) {
  const rows = await app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, action)));
  return rows.length;
}

async function settingsOf(app: FastifyInstance, companyId: number) {
  return app.db
    .select()
    .from(alarmSettings)
    .where(and(eq(alarmSettings.companyId, companyId), savedByTest));
}

/** The rule part of a batch body; the tests add devices and carrier. */
const RULE = {
  level: 2,
  alarmType: 'overLimit',
  min: 2,
  max: 8,
  repeat: 1,
  channels: ['email'],
  notifierIds: [] as string[],
};

describe('batch alarm setting', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const batch = (
    body: Record<string, unknown>,
    as: { token: string; companyId?: number },
    language?: 'en' | 'cn',
  ) =>
    call<{ ids: string[]; count: number }>(
      ctx.app,
      '/api/deviceAlarmRule/batchSaveAlarmSetting',
      { ...RULE, ...body },
      { ...as, language },
    );

  it('puts the same rule on every selected device, each audited', async () => {
    const f = await alarmFixture(ctx.app);
    const second = await buildDevice(ctx.app.db, f.company.id, { name: 'Fridge 2' });
    const saved = await batch({ deviceIds: [f.device.id, second.id], carrier: 'device' }, f.as);
    expect(saved.body).toMatchObject({ msgCode: 200, data: { count: 2 } });
    const rows = await settingsOf(ctx.app, f.company.id);
    expect(rows.map((r) => [r.carrier, r.deviceId, r.sensorId, r.level, r.max]).sort()).toEqual(
      [
        ['device', Number(f.device.id), null, 2, 8],
        ['device', Number(second.id), null, 2, 8],
      ].sort(),
    );
    expect(await auditCount(ctx.app, f.company.id, 'alarmSetting.create')).toBe(2);
  });

  it('on a channel, targets that channel’s sensor of each device; a device without it saves nothing', async () => {
    const f = await alarmFixture(ctx.app);
    const twoChannels = [
      { type: 'temperature', unit: '°C', min: -40, max: 85 },
      { type: 'humidity', unit: '%', min: 0, max: 100 },
    ];
    const a = await buildDevice(ctx.app.db, f.company.id, { channels: twoChannels });
    const b = await buildDevice(ctx.app.db, f.company.id, { channels: twoChannels });
    const saved = await batch({ deviceIds: [a.id, b.id], carrier: 'channel', channel: 2 }, f.as);
    expect(saved.body.msgCode).toBe(200);
    const rows = await settingsOf(ctx.app, f.company.id);
    expect(rows.map((r) => [r.carrier, r.sensorId, r.targetId]).sort()).toEqual(
      [
        ['sensor', a.sensors[1]!.id, a.sensors[1]!.id],
        ['sensor', b.sensors[1]!.id, b.sensors[1]!.id],
      ].sort(),
    );

    // f.device has one channel only: the whole batch is refused, in the caller's language.
    for (const [language, text] of [
      ['en', `Device ${f.device.serial} has no sensor on channel 2; nothing was saved`],
      ['cn', `设备 ${f.device.serial} 没有通道 2 的传感器，未保存任何设置`],
    ] as const) {
      const refused = await batch(
        { deviceIds: [a.id, f.device.id], carrier: 'channel', channel: 2 },
        f.as,
        language,
      );
      expect(refused.body).toMatchObject({ msgCode: 500, msgContent: text });
    }
    expect(await settingsOf(ctx.app, f.company.id)).toHaveLength(2);
  });

  it('needs devices, a channel for a channel batch and a valid rule', async () => {
    const f = await alarmFixture(ctx.app);
    const none = await batch({ deviceIds: [], carrier: 'device' }, f.as);
    expect(none.body.msgContent).toBe('Select at least one device, time period or record');
    const missing = await batch({ carrier: 'device' }, f.as, 'cn');
    expect(missing.body.msgContent).toBe('请至少选择一个设备、时间段或记录');
    const noChannel = await batch({ deviceIds: [f.device.id], carrier: 'channel' }, f.as);
    expect(noChannel.body.msgContent).toBe('Select the channel the setting applies to');
    const badRule = await batch({ deviceIds: [f.device.id], carrier: 'device', min: 9, max: 3 }, f.as);
    expect(badRule.body.msgCode).toBe(500);
    expect(await settingsOf(ctx.app, f.company.id)).toHaveLength(0);
  });

  it('saves nothing when one device is out of the caller’s sight, or of another company', async () => {
    const f = await alarmFixture(ctx.app);
    const pharmacy = await buildDepartment(ctx.app.db, f.company.id, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, f.company.id, { name: 'Store' });
    const mine = await buildDevice(ctx.app.db, f.company.id, { departmentId: pharmacy.id });
    const theirs = await buildDevice(ctx.app.db, f.company.id, { departmentId: store.id });
    const role = await buildRole(ctx.app.db, f.company.id, pharmacy.id, ['alarm:view', 'alarm:edit']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.company.id, member.id, false, {
      departmentId: pharmacy.id,
      roleId: role.id,
    });
    const token = await login(ctx.app, member.account);

    const refused = await batch({ deviceIds: [mine.id, theirs.id], carrier: 'device' }, { token });
    expect(refused.body).toMatchObject({ msgCode: 500, msgContent: 'The device does not exist' });
    const other = await alarmFixture(ctx.app);
    const foreign = await batch({ deviceIds: [f.device.id, other.device.id], carrier: 'device' }, f.as);
    expect(foreign.body).toMatchObject({ msgCode: 500, msgContent: 'The device does not exist' });
    expect(await settingsOf(ctx.app, f.company.id)).toHaveLength(0);
    expect(await auditCount(ctx.app, f.company.id, 'alarmSetting.create')).toBe(0);

    const allowed = await batch({ deviceIds: [mine.id], carrier: 'device' }, { token });
    expect(allowed.body.msgCode).toBe(200);
  });
});

describe('alarm record export and signature', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  afterEach(() => {
    alarmExportLimits.maxRows = 50_000;
  });

  /** A company with two alarms in January 2026, one of them resolved by the admin. */
  async function withAlarms() {
    const f = await alarmFixture(ctx.app);
    const insert = (at: number, content: { en: string; cn: string }, resolved = false) =>
      ctx.app.db
        .insert(alarmRecords)
        .values({
          companyId: f.company.id,
          deviceId: Number(f.device.id),
          sensorId: f.sensor.id,
          alarmType: 'overLimit',
          level: 2,
          alarmTime: new Date(at),
          excursionStart: new Date(at),
          dedupeKey: `t:${f.device.id}:${at}`,
          content,
          lastValue: 9.5,
          ...(resolved
            ? {
                resolveState: 3,
                resolverId: f.company.admin.id,
                resolveTime: new Date(at + 3_600_000),
                resolveType: 'handled',
                cause: 'Door open',
                action: '=Closed it',
              }
            : {}),
        })
        .returning();
    const [first] = await insert(
      START + 3_600_000,
      { en: 'Temperature 9.5 above 8', cn: '温度 9.5 高于 8' },
      true,
    );
    const [second] = await insert(START + 2 * 3_600_000, { en: 'Second alarm', cn: '第二条报警' });
    return { ...f, first: first!, second: second! };
  }

  const exportFile = (
    as: { token: string; companyId?: number },
    body: Record<string, unknown>,
    language: 'en' | 'cn' = 'en',
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/alarm/exportAlarms',
      headers: {
        'content-type': 'application/json',
        platform: '1',
        accessToken: as.token,
        language,
        ...(as.companyId ? { companyId: String(as.companyId) } : {}),
      },
      payload: JSON.stringify(body),
    });
  const period = { startTime: START, endTime: START + DAY };

  it('writes the period’s alarms as csv in the request’s language, and audits the export', async () => {
    const f = await withAlarms();
    const en = await exportFile(f.as, { ...period, format: 'csv', timeZone: 'Asia/Shanghai' });
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toContain('text/csv');
    expect(en.headers['content-disposition']).toContain('alarms-20260101-20260102.csv');
    const lines = en.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Alarm time,Device,Serial number,Sensor,Alarm type,Alarm level,Content,Count,Resolve state,Resolver,Resolve time,Cause,Action taken',
    );
    expect(lines).toHaveLength(3);
    // Newest first; times in the asked zone (UTC+8).
    expect(lines[1]).toContain('2026-01-01 10:00:00,Vaccine fridge 1');
    expect(lines[1]).toContain('Second alarm');
    expect(lines[2]).toContain(
      `2026-01-01 09:00:00,Vaccine fridge 1,${f.device.serial},${f.sensor.name},Over-limit alarm,Level 2,Temperature 9.5 above 8,1,Resolved,Company Admin,2026-01-01 10:00:00,Door open,'=Closed it`,
    );

    const cn = await exportFile(f.as, { ...period, format: 'csv', resolveState: 1 }, 'cn');
    const cnLines = cn.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(cnLines[0]!.startsWith('报警时间,设备,序列号,传感器,报警类型,报警级别,报警内容')).toBe(true);
    expect(cnLines).toHaveLength(2);
    expect(cnLines[1]).toContain('超限报警,2级,第二条报警,1,待处理');
    expect(await auditCount(ctx.app, f.company.id, 'alarm.export')).toBe(2);
  });

  it('writes xlsx too', async () => {
    const f = await withAlarms();
    const res = await exportFile(f.as, {
      ...period,
      format: 'xlsx',
      alarmType: 'overLimit',
      deviceId: f.device.id,
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Alarm records');
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(3).getCell(7).value).toBe('Temperature 9.5 above 8');
    expect(sheet.getRow(3).getCell(10).value).toBe('Company Admin');
  });

  it('needs a period and a format, refuses too many rows, and shows only visible devices', async () => {
    const f = await withAlarms();
    const message = async (body: Record<string, unknown>, language: 'en' | 'cn' = 'en', as = f.as) =>
      ((await exportFile(as, body, language)).json() as { msgContent: string }).msgContent;
    expect(await message({ format: 'csv' })).toBe('Select at least one device, time period or record');
    expect(await message({ startTime: START, format: 'csv' }, 'cn')).toBe('请至少选择一个设备、时间段或记录');
    expect(await message(period)).toBe('Select a file format: xlsx, csv or pdf');
    expect(await message({ ...period, format: 'docx' }, 'cn')).toBe('请选择文件格式：xlsx、csv 或 pdf');
    expect(await message({ startTime: START, endTime: START - 1, format: 'csv' })).toBe(
      'End time must be after the start time',
    );
    alarmExportLimits.maxRows = 1;
    expect(await message({ ...period, format: 'csv' })).toBe(
      'The period holds 2 alarm records; at most 1 can be exported at once. Choose a shorter period or filter',
    );
    expect(await auditCount(ctx.app, f.company.id, 'alarm.export')).toBe(0);
    alarmExportLimits.maxRows = 50_000;

    // Another company's caller gets its own (empty) file, never these alarms.
    const other = await alarmFixture(ctx.app);
    const theirs = await exportFile(other.as, { ...period, format: 'csv' });
    expect(theirs.body).not.toContain('Second alarm');
    expect(
      theirs.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    // A member of another department does not see the fridge.
    const dept = await buildDepartment(ctx.app.db, f.company.id, { name: 'Elsewhere' });
    const role = await buildRole(ctx.app.db, f.company.id, dept.id, ['alarm:view']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.company.id, member.id, false, { departmentId: dept.id, roleId: role.id });
    const memberFile = await exportFile(
      { token: await login(ctx.app, member.account) },
      { ...period, format: 'csv' },
    );
    expect(memberFile.body).not.toContain('Second alarm');
  });

  it('with audit signature on, export and resolve need the signature password', async () => {
    const f = await withAlarms();
    // The company administrator's switch (modules/signature), applying to every member.
    await call(ctx.app, '/api/company/setAuditSignature', { enabled: true }, f.as);
    const body = { ...period, format: 'csv' };
    const msg = async (res: Awaited<ReturnType<typeof exportFile>>) =>
      (res.json() as { msgContent: string }).msgContent;
    const resolve = (extra: Record<string, unknown>, language: 'en' | 'cn' = 'en') =>
      call(
        ctx.app,
        '/api/alarm/resolveAlarm',
        { id: String(f.second.id), resolveType: 'handled', cause: 'Checked', ...extra },
        { ...f.as, language },
      );

    // No signature password yet: the feature is closed (spec section 8).
    expect(await msg(await exportFile(f.as, { ...body, signPassword: 'abc123' }))).toBe(
      'Signature password not set, so the feature cannot be used',
    );
    expect((await resolve({}, 'cn')).body.msgContent).toBe('未设置签名密码，无法使用该功能');

    await call(ctx.app, '/api/user/setSignPassword', { password: 'abc123', confirmPassword: 'abc123' }, f.as);
    expect(await msg(await exportFile(f.as, body))).toBe('Enter your signature password to continue');
    expect(await msg(await exportFile(f.as, { ...body, signPassword: 'wrong1' }, 'cn'))).toBe('签名密码错误');
    expect((await resolve({})).body.msgContent).toBe('Enter your signature password to continue');
    expect((await resolve({ signPassword: 'wrong1' })).body.msgContent).toBe(
      'The signature password is incorrect',
    );
    const [still] = await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.id, f.second.id));
    expect(still!.resolveState).toBe(1);
    expect(await auditCount(ctx.app, f.company.id, 'alarm.export')).toBe(0);

    const ok = await exportFile(f.as, { ...body, signPassword: 'abc123' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Second alarm');
    const resolved = await resolve({ signPassword: 'abc123' });
    expect(resolved.body).toMatchObject({ msgCode: 200, data: { resolveState: 3 } });
    // The password never reaches the audit trail; who signed and what the signature means do.
    const trail = await ctx.app.db.select().from(auditLog).where(eq(auditLog.companyId, f.company.id));
    expect(JSON.stringify(trail)).not.toContain('abc123');
    const resolveEntry = trail.find((e) => e.action === 'alarm.resolve');
    expect(resolveEntry?.after).toMatchObject({
      signature: { meaning: 'alarmResolution', signedBy: 'Company Admin' },
    });

    // With audit signature off the password is not needed.
    await call(ctx.app, '/api/company/setAuditSignature', { enabled: false }, f.as);
    expect((await exportFile(f.as, body)).statusCode).toBe(200);
  });
});
