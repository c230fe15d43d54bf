import type { OperationFigures } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDepartment, buildDevice } from '../../test/factories';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { creditLedger } from '../delivery/delivery.table';
import { devices } from '../devices/devices.table';
import { equipment, equipmentSensors, equipmentTypes } from '../equipment/equipment.table';
import { renderPdf } from '../reports/pdf-writer';
import { readings, readingsHourly } from '../telemetry/readings.table';
import { type FiguresScope, operationFigures } from './operation-figures';
import { operationReportModel } from './operation-pdf';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;
/** The period: one UTC day well in the past. */
const T0 = Date.UTC(2026, 2, 10);
const T1 = T0 + DAY;
const NOW = Date.UTC(2026, 2, 20);

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)));
  return text.join('\n').replace(/[ \t]+/g, ' ');
}

/**
 * One company: department A holds devices 1 and 2, department B device 3, device 4 is in no
 * department and was added half-way through the period. Every figure below is counted by hand
 * from the rows this builds.
 */
describe('operation report figures', () => {
  const ctx = useTestApp();
  let company: FiguresScope;
  let deptA: FiguresScope;
  let companyName: string;

  beforeAll(async () => {
    const db = ctx.app.db;
    companyName = 'Figures Hospital';
    const c = await buildCompany(db, { name: companyName });
    const a = await buildDepartment(db, c.id, { name: 'Ward A' });
    const b = await buildDepartment(db, c.id, { name: 'Ward B' });
    company = { companyId: c.id, department: null };
    deptA = { companyId: c.id, department: { id: a.id, name: 'Ward A', path: a.path } };
    const d1 = await buildDevice(db, c.id, { name: 'Fridge 1', departmentId: a.id });
    const d2 = await buildDevice(db, c.id, { name: 'Fridge 2', departmentId: a.id });
    const d3 = await buildDevice(db, c.id, { name: 'Fridge 3', departmentId: b.id });
    const d4 = await buildDevice(db, c.id, { name: 'Fridge 4' });
    // Added ten days before the period, except device 4 (half-way through it).
    for (const [d, state, created] of [
      [d1, 1, T0 - 10 * DAY],
      [d2, 4, T0 - 10 * DAY],
      [d3, 2, T0 - 10 * DAY],
      [d4, 6, T0 + 12 * HOUR],
    ] as const) {
      await db
        .update(devices)
        .set({ state, createdAt: new Date(created) })
        .where(eq(devices.id, Number(d.id)));
    }
    // Hours holding a reading: device 1 all 24 (and one before the period), device 2 six,
    // device 3 none, device 4 three after it was added (and one before, which does not count).
    const hourly = (sensorId: number, hours: number[]) =>
      hours.map((h) => ({
        sensorId,
        bucket: new Date(T0 + h * HOUR),
        n: 1,
        sum: 4,
        expsum: 1,
        min: 4,
        minTs: new Date(T0 + h * HOUR),
        max: 4,
        maxTs: new Date(T0 + h * HOUR),
      }));
    await db
      .insert(readingsHourly)
      .values([
        ...hourly(d1.sensors[0]!.id, [-1, ...Array.from({ length: 24 }, (_, h) => h)]),
        ...hourly(d2.sensors[0]!.id, [0, 1, 2, 3, 4, 5]),
        ...hourly(d4.sensors[0]!.id, [2, 12, 13, 20]),
      ]);

    const alarm = async (
      d: typeof d1,
      type: string,
      level: number,
      at: number,
      resolvedAfterMin: number | null,
      state = resolvedAfterMin === null ? 1 : 3,
    ) => {
      const [row] = await db
        .insert(alarmRecords)
        .values({
          companyId: c.id,
          deviceId: Number(d.id),
          sensorId: d.sensors[0]!.id,
          alarmType: type,
          level,
          alarmTime: new Date(at),
          excursionStart: new Date(at),
          dedupeKey: `figures:${d.id}:${type}:${at}`,
          content: { en: 'Alarm', cn: '报警' },
          resolveState: state,
          resolveTime: resolvedAfterMin === null ? null : new Date(at + resolvedAfterMin * MINUTE),
        })
        .returning();
      return row!;
    };
    const first = await alarm(d1, 'overLimit', 1, T0 + 1 * HOUR, 30);
    await alarm(d1, 'overLimit', 2, T0 + 2 * HOUR, 90);
    await alarm(d1, 'offline', 1, T0 + 3 * HOUR, 10);
    await alarm(d1, 'preAlarm', 1, T0 + 4 * HOUR, null);
    await alarm(d2, 'overLimit', 1, T0 + 5 * HOUR, 50);
    await alarm(d2, 'powerOff', 3, T0 + 6 * HOUR, null, 2);
    const wardB = await alarm(d3, 'overLimit', 1, T0 + 7 * HOUR, 1000);
    // Outside the period: not counted.
    await alarm(d1, 'overLimit', 1, T0 - HOUR, null);
    await alarm(d1, 'overLimit', 1, T1, 5);

    const notify = async (alarmId: number, channel: string) => {
      const [n] = await db
        .insert(alarmNotifications)
        .values({ companyId: c.id, alarmId, userId: c.admin.id, channel, level: 1 })
        .returning();
      return n!.id;
    };
    const sms = await notify(first.id, 'sms');
    const mail = await notify(wardB.id, 'email');
    await db.insert(creditLedger).values([
      { companyId: c.id, kind: 'grant', amount: 100, createdAt: new Date(T0 + HOUR) },
      {
        companyId: c.id,
        kind: 'debit',
        amount: -3,
        notificationId: sms,
        channel: 'sms',
        createdAt: new Date(T0 + HOUR),
      },
      {
        companyId: c.id,
        kind: 'refund',
        amount: 1,
        notificationId: sms,
        channel: 'sms',
        createdAt: new Date(T0 + 2 * HOUR),
      },
      {
        companyId: c.id,
        kind: 'debit',
        amount: -2,
        notificationId: mail,
        channel: 'email',
        createdAt: new Date(T0 + 8 * HOUR),
      },
      { companyId: c.id, kind: 'debit', amount: -7, channel: 'sms', createdAt: new Date(T1 + HOUR) },
    ]);

    // Equipment of ward A with a budget of 300 minutes per 30 days (10 for the day), bound to
    // device 1's sensor, which read 9 °C (above 8) for 20 minutes; one of ward B without a budget.
    const [type] = await db
      .insert(equipmentTypes)
      .values({ companyId: c.id, name: 'Fridge', code: '10' })
      .returning();
    const [fridge] = await db
      .insert(equipment)
      .values({
        companyId: c.id,
        typeId: type!.id,
        serial: '100001',
        serialSuffix: '0001',
        name: 'Vaccine fridge',
        departmentId: a.id,
        excursion: { max: 8, budgetMinutes: 300 },
      })
      .returning();
    await db.insert(equipment).values({
      companyId: c.id,
      typeId: type!.id,
      serial: '100002',
      serialSuffix: '0002',
      name: 'Plain',
      departmentId: b.id,
    });
    await db
      .insert(equipmentSensors)
      .values({ sensorId: d1.sensors[0]!.id, equipmentId: fridge!.id, companyId: c.id });
    await db.insert(readings).values([
      { sensorId: d1.sensors[0]!.id, ts: new Date(T0 + 10 * HOUR), value: 5 },
      { sensorId: d1.sensors[0]!.id, ts: new Date(T0 + 10 * HOUR + 10 * MINUTE), value: 9 },
      { sensorId: d1.sensors[0]!.id, ts: new Date(T0 + 10 * HOUR + 30 * MINUTE), value: 5 },
    ]);

    // Another company's alarm in the same period never counts.
    const other = await buildCompany(db);
    const foreign = await buildDevice(db, other.id);
    await db.insert(alarmRecords).values({
      companyId: other.id,
      deviceId: Number(foreign.id),
      alarmType: 'overLimit',
      level: 1,
      alarmTime: new Date(T0 + HOUR),
      excursionStart: new Date(T0 + HOUR),
      dedupeKey: 'figures:foreign',
      content: { en: 'Alarm', cn: '报警' },
    });
  });

  const figuresOf = (scope: FiguresScope) =>
    operationFigures(
      ctx.app.db,
      scope,
      { startTime: T0, endTime: T1, timeZone: 'UTC' },
      { now: NOW, activationEnergyKj: 83.144 },
    );

  it('counts the whole company by hand', async () => {
    const f = await figuresOf(company);
    expect(f.companyName).toBe(companyName);
    expect(f.departmentName).toBeNull();
    expect(f.devices).toEqual({ total: 4, online: 2 });
    // 24 + 24 + 24 + 12 expected hours; 24 + 6 + 0 + 3 covered.
    expect(f.availability).toMatchObject({ expectedHours: 84, coveredHours: 33 });
    expect(f.availability.ratio).toBeCloseTo(33 / 84, 10);
    expect(f.availability.lowest.map((d) => [d.name, d.ratio])).toEqual([
      ['Fridge 3', 0],
      ['Fridge 2', 0.25],
      ['Fridge 4', 0.25],
      ['Fridge 1', 1],
    ]);
    expect(f.alarms.total).toBe(7);
    expect(f.alarms.byType).toEqual([
      { alarmType: 'offline', level1: 1, level2: 0, level3: 0, total: 1 },
      { alarmType: 'overLimit', level1: 3, level2: 1, level3: 0, total: 4 },
      { alarmType: 'powerOff', level1: 0, level2: 0, level3: 1, total: 1 },
      { alarmType: 'preAlarm', level1: 1, level2: 0, level3: 0, total: 1 },
    ]);
    expect(f.alarms.byLevel).toEqual([
      { level: 1, count: 5 },
      { level: 2, count: 1 },
      { level: 3, count: 1 },
    ]);
    // Resolved after 10, 30, 50, 90 and 1000 minutes.
    expect(f.resolution).toEqual({ resolved: 5, medianMs: 50 * MINUTE, worstMs: 1000 * MINUTE });
    expect(f.unresolved.count).toBe(2);
    expect(f.unresolved.list.map((a) => [a.deviceName, a.alarmType, a.level])).toEqual([
      ['Fridge 1', 'preAlarm', 1],
      ['Fridge 2', 'powerOff', 3],
    ]);
    expect(f.equipment).toEqual([
      expect.objectContaining({ name: 'Vaccine fridge', budgetMinutes: 10, usedMinutes: 20, ratio: 2 }),
    ]);
    expect(f.credits).toEqual({
      spent: 4,
      byChannel: [
        { channel: 'email', spent: 2 },
        { channel: 'sms', spent: 2 },
      ],
    });
  });

  it('counts one department and those below it only', async () => {
    const f = await figuresOf(deptA);
    expect(f.departmentName).toBe('Ward A');
    expect(f.devices).toEqual({ total: 2, online: 1 });
    expect(f.availability).toMatchObject({ expectedHours: 48, coveredHours: 30 });
    expect(f.alarms.total).toBe(6);
    // 10, 30, 50, 90: the mean of the two middle ones.
    expect(f.resolution).toEqual({ resolved: 4, medianMs: 40 * MINUTE, worstMs: 90 * MINUTE });
    expect(f.unresolved.count).toBe(2);
    expect(f.equipment.map((e) => e.name)).toEqual(['Vaccine fridge']);
    expect(f.credits).toEqual({ spent: 2, byChannel: [{ channel: 'sms', spent: 2 }] });
  });

  it('says nothing and divides by nothing for an empty period', async () => {
    const f = await operationFigures(
      ctx.app.db,
      company,
      { startTime: T0 - 30 * DAY, endTime: T0 - 29 * DAY, timeZone: 'UTC' },
      { now: NOW, activationEnergyKj: 83.144 },
    );
    expect(f.alarms).toMatchObject({ total: 0, byType: [] });
    expect(f.resolution).toEqual({ resolved: 0, medianMs: null, worstMs: null });
    expect(f.availability).toMatchObject({ expectedHours: 0, coveredHours: 0, ratio: null });
    expect(f.credits.spent).toBe(0);
  });

  it('prints the figures in the PDF, read back as text, in English and Chinese', async () => {
    const f: OperationFigures = await figuresOf(company);
    const en = await pdfText(
      (
        await renderPdf(
          operationReportModel(f, { taskName: 'Daily summary', generatedBy: 'Task', language: 'en' }),
        )
      ).bytes,
    );
    expect(en).toContain('Operation report');
    expect(en).toContain('Figures Hospital');
    expect(en).toContain('Whole company');
    expect(en).toMatch(/2026-03-10 00:00:00 -\s+2026-03-11 00:00:00/);
    expect(en).toMatch(/33 of 84 hours/);
    expect(en).toContain('39.3%');
    expect(en).toMatch(/Median\s+50 min/);
    expect(en).toMatch(/Worst\s+16 h 40 min/);
    expect(en).toContain('Over-limit alarm');
    expect(en).toContain('Vaccine fridge');
    expect(en).toContain('200.0%');
    expect(en).toMatch(/Report SHA-256/);
    const cn = await pdfText(
      (
        await renderPdf(
          operationReportModel(f, { taskName: '每日汇总', generatedBy: '任务', language: 'cn' }),
        )
      ).bytes,
    );
    expect(cn).toContain('运维报告');
    expect(cn).toContain('全企业');
    expect(cn).toMatch(/中位数\s*50 分钟/);
    expect(cn).toContain('超限报警');
  });
});
