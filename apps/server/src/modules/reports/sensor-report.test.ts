import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { VerifyReportAnswer } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
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
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { reportFiles } from './report-files.table';
import { type Caller, pdfText, postForFile } from './report-test-support';

const reportCall = (app: FastifyInstance, as: Caller, body: object, language = 'en') =>
  postForFile(app, as, '/api/report/sensorReport', body, language);

const uploadDir = mkdtempSync(path.join(tmpdir(), 'reports-test-'));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 2, 2, 0, 0, 0);
const STEP = 5 * 60_000;
const END = T0 + 2 * 3_600_000;
/** 24 readings, every 5 minutes; the allowed range is 2..8 °C. */
const VALUES = [5, 5, 5, 5, 5, 5, 10, 10, 10, 5, 5, 5, 5, 5, 5, 5, 1, 5, 5, 5, 5, 5, 5, 9];

describe('sensor report PDF', () => {
  const ctx = useTestApp({ uploadDir });

  async function seeded() {
    const company = await buildCompany(ctx.app.db, { name: 'Acme Cold Chain' });
    const admin: Caller = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Fridge 3' });
    const sensor = device.sensors[0]!;
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    await ctx.app.ingest.ingest(
      known,
      VALUES.map((v, i) => ({ ts: T0 + i * STEP, channels: [{ ch: 1, v }], mode: 'normal' as const })),
    );
    // The rule and its alarm come after the readings, so the engine raises nothing of its own.
    const [setting] = await ctx.app.db
      .insert(alarmSettings)
      .values({
        companyId: company.id,
        carrier: 'sensor',
        targetId: sensor.id,
        deviceId: Number(device.id),
        sensorId: sensor.id,
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
      })
      .returning();
    await ctx.app.db.insert(alarmRecords).values({
      companyId: company.id,
      deviceId: Number(device.id),
      sensorId: sensor.id,
      settingId: setting!.id,
      alarmType: 'overLimit',
      level: 1,
      alarmTime: new Date(T0 + 6 * STEP),
      excursionStart: new Date(T0 + 6 * STEP),
      dedupeKey: `report-test:${setting!.id}`,
      content: { en: 'Temperature 10 above 8', cn: '温度 10 高于 8' },
      lastValue: 10,
      resolveState: 3,
      resolverId: company.admin.id,
      resolveTime: new Date(T0 + 10 * STEP),
      cause: 'Door left open',
      action: 'Door closed, goods checked',
    });
    return { company, admin, device, sensor };
  }

  it('prints the figures, the excursion and the fingerprint, and verifyReport finds it', async () => {
    const { admin, sensor } = await seeded();
    const body = { sensorId: String(sensor.id), startTime: T0, endTime: END, timeZone: 'UTC' };
    const report = await reportCall(ctx.app, admin, body);
    expect(report.envelope).toBeNull();
    const text = await pdfText(report.pdf!);

    // MKT by hand (USP <1079>): ΔH/R = 83 144 / 8.3144598 K, T in kelvin.
    const hOverR = 83_144 / 8.3144598;
    const mean = VALUES.reduce((s, v) => s + Math.exp(-hOverR / (v + 273.15)), 0) / VALUES.length;
    const mkt = hOverR / -Math.log(mean) - 273.15;
    expect(text).toContain(`Mean kinetic temperature ${mkt.toFixed(2)} °C`);
    // Out of range by hand: three readings at 10 (15 min), one at 1 (5 min), the last at 9 until
    // the period's end (5 min).
    expect(text).toContain('Time out of range 25 min');
    expect(text).toContain('Minimum 1.00 °C');
    expect(text).toContain('Maximum 10.00 °C');
    expect(text).toContain(`Average ${(VALUES.reduce((a, b) => a + b) / VALUES.length).toFixed(2)} °C`);
    expect(text).toContain('Acme Cold Chain');
    expect(text).toContain('Fridge 3');
    expect(text).toContain('2 ~ 8 °C');
    expect(text).toContain('Door left open');
    expect(text).toContain('Company Admin');
    expect(text).toContain('2026-03-02 00:30:00 10.00 Above range');
    // The footer of every page carries the fingerprint the response names.
    expect(report.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(text).toContain(`Report SHA-256: ${report.fingerprint}`);
    expect(text).toMatch(/Page 1 of \d+/);

    const found = await call<VerifyReportAnswer>(
      ctx.app,
      '/api/report/verifyReport',
      {
        sha256: report.fingerprint.toUpperCase(),
      },
      admin,
    );
    expect(found.body.data).toMatchObject({ found: true, generatedBy: 'Company Admin' });
    expect(found.body.data.fileName).toMatch(/^sensor-report-.*\.pdf$/);

    // Another company does not find it, and cannot report on the sensor.
    const other = await buildCompany(ctx.app.db);
    const stranger: Caller = { token: await login(ctx.app, other.admin.account), companyId: other.id };
    const notFound = await call<VerifyReportAnswer>(
      ctx.app,
      '/api/report/verifyReport',
      { sha256: report.fingerprint },
      stranger,
    );
    expect(notFound.body.data).toEqual({
      found: false,
      fileName: null,
      generatedAt: null,
      generatedBy: null,
    });
    expect((await reportCall(ctx.app, stranger, body)).envelope).toMatchObject({
      msgContent: 'The sensor does not exist',
    });
  });

  it('prints Chinese, and a signature with its signer, time and meaning after the password', async () => {
    const { company, admin, sensor } = await seeded();
    const body = { sensorId: String(sensor.id), startTime: T0, endTime: END, timeZone: 'Asia/Shanghai' };
    const unsigned = await reportCall(ctx.app, admin, { ...body, signMeaning: 'approved' }, 'cn');
    expect(unsigned.envelope?.msgContent).toBe('未设置签名密码，无法使用该功能');
    await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'abc123', confirmPassword: 'abc123' },
      admin,
    );
    expect(
      (await reportCall(ctx.app, admin, { ...body, signMeaning: 'approved' }, 'cn')).envelope?.msgContent,
    ).toBe('请输入签名密码后继续');
    const signed = await reportCall(
      ctx.app,
      admin,
      { ...body, signMeaning: 'approved', signPassword: 'abc123' },
      'cn',
    );
    const text = await pdfText(signed.pdf!);
    expect(text).toContain('传感器数据报告');
    expect(text).toContain('超出范围时长 25 分钟');
    expect(text).toContain('平均动力学温度');
    expect(text).toContain('原因');
    expect(text).toContain('电子签名');
    expect(text).toMatch(/Company Admin \d{4}-\d\d-\d\d \d\d:\d\d:\d\d 已批准/);
    expect(text).toContain('Asia/Shanghai');
    expect(text).toContain(`报告 SHA-256： ${signed.fingerprint}`);
    const [row] = await ctx.app.db
      .select()
      .from(reportFiles)
      .where(eq(reportFiles.fingerprint, signed.fingerprint));
    expect(row).toMatchObject({ companyId: company.id, kind: 'sensorReport', size: signed.pdf!.length });
    expect(JSON.stringify(row)).not.toContain('abc123');
  });

  it('keeps a department member to the devices they see, and names a bad field', async () => {
    const { company, sensor } = await seeded();
    const ward = await buildDepartment(ctx.app.db, company.id, { name: 'Ward B' });
    const role = await buildRole(ctx.app.db, company.id, ward.id, ['device:view', 'device:export']);
    const nurse = await buildUser(ctx.app.db, { name: 'Nurse' });
    await addMember(ctx.app.db, company.id, nurse.id, false, { departmentId: ward.id, roleId: role.id });
    const as: Caller = { token: await login(ctx.app, nurse.account), companyId: company.id };
    const body = { sensorId: String(sensor.id), startTime: T0, endTime: END };
    expect((await reportCall(ctx.app, as, body)).envelope?.msgContent).toBe('The sensor does not exist');
    const ownDevice = await buildDevice(ctx.app.db, company.id, { departmentId: ward.id });
    const own = await reportCall(ctx.app, as, { ...body, sensorId: String(ownDevice.sensors[0]!.id) });
    expect(own.pdf?.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await reportCall(ctx.app, as, { ...body, interval: 7 })).envelope?.msgContent).toContain(
      'Table interval must be one of',
    );
  });
});
