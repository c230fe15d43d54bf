import type { VerifyReportAnswer } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { sha256Hex } from './pdf-writer';
import { type Caller, pdfText, postForFile } from './report-test-support';

const START = Date.UTC(2026, 3, 1);
const END = Date.UTC(2026, 3, 2);

describe('PDF exports through the shared export writer', () => {
  const ctx = useTestApp();

  async function seeded() {
    const company = await buildCompany(ctx.app.db);
    const admin: Caller = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const device = await buildDevice(ctx.app.db, company.id, { name: '三号冰箱' });
    const sensor = device.sensors[0]!;
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    await ctx.app.ingest.ingest(known, [
      { ts: START + 60_000, channels: [{ ch: 1, v: 4.25 }], mode: 'normal' as const },
      { ts: START + 120_000, channels: [{ ch: 1, v: 11.5 }], mode: 'normal' as const },
    ]);
    const [setting] = await ctx.app.db
      .insert(alarmSettings)
      .values({
        companyId: company.id,
        carrier: 'sensor',
        targetId: sensor.id,
        deviceId: Number(device.id),
        sensorId: sensor.id,
        level: 2,
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
      level: 2,
      alarmTime: new Date(START + 120_000),
      excursionStart: new Date(START + 120_000),
      dedupeKey: `export-pdf:${setting!.id}`,
      content: { en: 'Temperature 11.5 above 8', cn: '温度 11.5 高于 8' },
      lastValue: 11.5,
      cause: '门未关好',
    });
    return { company, admin, device };
  }

  it('writes the alarm records as a PDF in Chinese whose fingerprint verifyReport finds', async () => {
    const { admin } = await seeded();
    const file = await postForFile(
      ctx.app,
      admin,
      '/api/alarm/exportAlarms',
      { startTime: START, endTime: END, format: 'pdf', timeZone: 'UTC' },
      'cn',
    );
    expect(file.type).toBe('application/pdf');
    expect(file.disposition).toContain('.pdf');
    const text = await pdfText(file.bytes);
    expect(text).toContain('报警记录');
    expect(text).toContain('三号冰箱');
    expect(text).toContain('温度 11.5 高于 8');
    expect(text).toContain('门未关好');
    expect(text).toContain('第 1 页，共 1 页');
    const fingerprint = /报告 SHA-256： ([0-9a-f]{64})/.exec(text)?.[1];
    expect(fingerprint).toBeDefined();
    // Every download of a PDF carries the printed fingerprint in a header too.
    expect(file.fingerprint).toBe(fingerprint);
    const found = await call<VerifyReportAnswer>(
      ctx.app,
      '/api/report/verifyReport',
      { sha256: fingerprint },
      admin,
    );
    expect(found.body.data).toMatchObject({ found: true, generatedBy: 'Company Admin' });
    // The downloaded file's own hash is found too.
    const byFile = await call<VerifyReportAnswer>(
      ctx.app,
      '/api/report/verifyReport',
      { sha256: sha256Hex(file.bytes) },
      admin,
    );
    expect(byFile.body.data.found).toBe(true);
  });

  it('writes device data and the operation log as PDFs; csv stays csv', async () => {
    const { admin, device } = await seeded();
    const period = { startTime: START, endTime: END, timeZone: 'UTC' };
    const data = await postForFile(ctx.app, admin, '/api/device/exportData', {
      ...period,
      deviceIds: [device.id],
      format: 'pdf',
    });
    const dataText = await pdfText(data.bytes);
    expect(dataText).toContain('Readings');
    expect(dataText).toContain(device.serial);
    expect(dataText).toContain('11.5');
    expect(dataText).toMatch(/Page 1 of 1/);
    expect(dataText).toContain(`Report SHA-256: ${data.fingerprint}`);

    const trail = await postForFile(ctx.app, admin, '/api/audit/exportOperationLog', {
      startTime: Date.now() - 3_600_000,
      endTime: Date.now() + 60_000,
      format: 'pdf',
    });
    expect(trail.type).toBe('application/pdf');
    // The device data export above is on the trail, and its fingerprint is recorded too.
    const trailText = await pdfText(trail.bytes);
    expect(trailText).toContain('Report SHA-256:');

    const csv = await postForFile(ctx.app, admin, '/api/device/exportData', {
      ...period,
      deviceIds: [device.id],
      format: 'csv',
    });
    expect(csv.type).toContain('text/csv');
    expect(csv.fingerprint).toBe('');
    expect(csv.disposition).toMatch(/^attachment; filename="[^"]+\.csv"; filename\*=UTF-8''/);
    expect(csv.bytes.toString('utf8')).toContain('11.5');
  });
});
