import type { Statistics } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { auditLog } from '../audit/audit.table';
import { companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { buildStatisticsFixture, NOW, type StatisticsFixture, shanghai, WEEK } from './statistics-fixture';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const URL = '/api/statistics/companyStatistics';
const EXPORT = '/api/statistics/exportStatistics';

describe('statistics', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  let f: StatisticsFixture;

  beforeAll(async () => {
    f = await buildStatisticsFixture(ctx.app);
    // The figures are asked "a day after the week" (fixture.NOW): the route uses the real clock,
    // which is later still, so nothing expected depends on which of the two is used.
    expect(Date.now()).toBeGreaterThan(NOW);
  });

  const ask = async (body: object, token = f.tokens.admin, language: 'en' | 'cn' = 'en') =>
    call<Statistics>(ctx.app, URL, body, { token, language });
  const week = (extra: object = {}) => ({ ...WEEK, timeZone: 'Asia/Shanghai', ...extra });
  const series = <K>(list: { key: K; counts: number[] }[], key: K) => list.find((s) => s.key === key)?.counts;

  it('counts alarms by type, level and department per Shanghai day, against the hand count', async () => {
    const { body } = await ask(week());
    expect(body.msgCode).toBe(200);
    const s = body.data;
    expect(s.bucket).toBe('day');
    expect(s.buckets).toEqual(Array.from({ length: 7 }, (_, i) => WEEK.startTime + i * DAY));
    expect(s.alarms!.total).toBe(5);
    expect(s.alarms!.byType.map((x) => x.key).sort()).toEqual([
      'offline',
      'overLimit',
      'powerOff',
      'preAlarm',
    ]);
    // a1 is 01:00 on 2 March in Shanghai (17:00 on 1 March in UTC): the second day.
    expect(series(s.alarms!.byType, 'overLimit')).toEqual([0, 1, 1, 0, 0, 0, 0]);
    expect(series(s.alarms!.byType, 'offline')).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(series(s.alarms!.byType, 'preAlarm')).toEqual([0, 0, 1, 0, 0, 0, 0]);
    expect(series(s.alarms!.byType, 'powerOff')).toEqual([0, 0, 0, 0, 1, 0, 0]);
    expect(series(s.alarms!.byLevel, 1)).toEqual([0, 1, 1, 0, 0, 0, 0]);
    expect(series(s.alarms!.byLevel, 2)).toEqual([0, 1, 0, 0, 1, 0, 0]);
    expect(series(s.alarms!.byLevel, 3)).toEqual([0, 0, 1, 0, 0, 0, 0]);
    const { pharmacy, coldRoom, lab } = f.departments;
    expect(series(s.alarms!.byDepartment, String(pharmacy.id))).toEqual([0, 2, 0, 0, 0, 0, 0]);
    expect(series(s.alarms!.byDepartment, String(coldRoom.id))).toEqual([0, 0, 2, 0, 0, 0, 0]);
    expect(series(s.alarms!.byDepartment, String(lab.id))).toEqual([0, 0, 0, 0, 1, 0, 0]);
    expect(s.departments.map((d) => d.name)).toEqual(
      expect.arrayContaining(['Pharmacy', 'Cold room', 'Lab']),
    );
  });

  it('buckets the same instants by UTC day when asked in UTC', async () => {
    const { body } = await ask(week({ timeZone: 'UTC' }));
    const s = body.data;
    // 1 March 00:00 Shanghai is 28 February 16:00 UTC: eight UTC days touch the week.
    expect(s.buckets[0]).toBe(Date.parse('2026-02-28T00:00:00Z'));
    expect(s.buckets).toHaveLength(8);
    expect(series(s.alarms!.byType, 'overLimit')).toEqual([0, 1, 0, 1, 0, 0, 0, 0]);
  });

  it('counts by hour for short periods, and keeps 23- and 25-hour days over daylight saving', async () => {
    const day = await ask({
      startTime: shanghai('2026-03-02T00:00'),
      endTime: shanghai('2026-03-03T00:00'),
      timeZone: 'Asia/Shanghai',
    });
    expect(day.body.data.bucket).toBe('hour');
    expect(day.body.data.buckets).toHaveLength(24);
    const overLimit = series(day.body.data.alarms!.byType, 'overLimit')!;
    const offline = series(day.body.data.alarms!.byType, 'offline')!;
    expect(overLimit.indexOf(1)).toBe(1);
    expect(offline.indexOf(1)).toBe(10);

    // Berlin springs forward on 29 March 2026 and falls back on 25 October.
    const spring = await ask({
      startTime: Date.parse('2026-03-28T00:00:00+01:00'),
      endTime: Date.parse('2026-04-01T00:00:00+02:00'),
      timeZone: 'Europe/Berlin',
    });
    const b = spring.body.data.buckets;
    expect(spring.body.data.bucket).toBe('day');
    expect(b.slice(1).map((x, i) => (x - b[i]!) / HOUR)).toEqual([24, 23, 24]);
    const autumn = await ask({
      startTime: Date.parse('2026-10-25T00:00:00+02:00'),
      endTime: Date.parse('2026-10-26T00:00:00+01:00'),
      timeZone: 'Europe/Berlin',
    });
    expect(autumn.body.data.bucket).toBe('hour');
    expect(autumn.body.data.buckets).toHaveLength(25);
  });

  it('measures time to resolve per department: median, 90th percentile and worst', async () => {
    const { body } = await ask(week());
    const r = body.data.resolveTime!;
    // Resolved after 10, 20, 30, 50 minutes; a4 still pending.
    expect(r.overall).toMatchObject({
      resolved: 4,
      open: 1,
      medianMinutes: 25,
      p90Minutes: 44,
      worstMinutes: 50,
    });
    const of = (id: number) => r.rows.find((x) => x.departmentId === String(id));
    expect(of(f.departments.pharmacy.id)).toMatchObject({
      resolved: 2,
      open: 0,
      medianMinutes: 20,
      p90Minutes: 28,
      worstMinutes: 30,
    });
    expect(of(f.departments.coldRoom.id)).toMatchObject({
      resolved: 1,
      open: 1,
      medianMinutes: 50,
      worstMinutes: 50,
    });
    expect(of(f.departments.lab.id)).toMatchObject({ resolved: 1, medianMinutes: 20 });
  });

  it('measures availability as device-hours with a reading against device-hours expected', async () => {
    const { body } = await ask(week());
    const a = body.data.availability!;
    // 168 hours in the week per device; d1 has readings in 84 of them, d2 in all, d3 in none.
    expect(a.overall).toMatchObject({ devices: 3, expectedHours: 504, coveredHours: 252, ratio: 0.5 });
    const of = (id: number) => a.rows.find((x) => x.departmentId === String(id));
    expect(of(f.departments.pharmacy.id)).toMatchObject({ devices: 1, coveredHours: 84, ratio: 0.5 });
    expect(of(f.departments.coldRoom.id)).toMatchObject({ devices: 1, coveredHours: 168, ratio: 1 });
    expect(of(f.departments.lab.id)).toMatchObject({ devices: 1, coveredHours: 0, ratio: 0 });
    // Only devices below 100 % are "least available".
    expect(a.worst.map((d) => d.name)).toEqual(['Lab freezer', 'Pharmacy fridge']);
  });

  it('counts notifications by channel and outcome, and credits used per day', async () => {
    const { body } = await ask(week());
    const n = body.data.notifications!;
    expect(n.total).toBe(6);
    const of = (channel: string) => n.rows.find((r) => r.channel === channel)!.counts;
    expect(of('email')).toEqual({ delivered: 1, sent: 0, failed: 0, notSent: 0, pending: 0 });
    expect(of('sms')).toEqual({ delivered: 0, sent: 1, failed: 1, notSent: 0, pending: 0 });
    expect(of('call')).toMatchObject({ notSent: 1 });
    expect(of('wechat')).toMatchObject({ pending: 1 });
    expect(of('whatsapp')).toMatchObject({ delivered: 1 });
    const c = body.data.credits!;
    // sms 2 kept + sms 1 refunded (net 0) on 2 March, WhatsApp 1 on 5 March; the grant is not use.
    expect(c.total).toBe(3);
    expect(series(c.byChannel, 'sms')).toEqual([0, 2, 0, 0, 0, 0, 0]);
    expect(series(c.byChannel, 'whatsapp')).toEqual([0, 0, 0, 0, 1, 0, 0]);
  });

  it('filters by a department and everything below it', async () => {
    const pharmacy = await ask(week({ departmentId: String(f.departments.pharmacy.id) }));
    expect(pharmacy.body.data.alarms!.total).toBe(4);
    expect(pharmacy.body.data.availability!.overall.devices).toBe(2);
    expect(pharmacy.body.data.notifications!.total).toBe(5);
    const lab = await ask(week({ departmentId: String(f.departments.lab.id) }));
    expect(lab.body.data.alarms!.total).toBe(1);
    expect(lab.body.data.credits!.total).toBe(1);
  });

  it('limits a department member to their subtree, and refuses a department outside it', async () => {
    const token = await f.member(f.departments.pharmacy, ['statistics:view', 'alarm:view', 'device:view']);
    const { body } = await ask(week(), token);
    expect(body.data.alarms!.total).toBe(4);
    expect(body.data.departments.map((d) => d.name).sort()).toEqual(['Cold room', 'Pharmacy']);
    expect(body.data.availability!.overall.devices).toBe(2);
    const outside = await ask(week({ departmentId: String(f.departments.lab.id) }), token);
    expect(outside.body).toMatchObject({ msgCode: 500, msgContent: 'The department does not exist' });
  });

  it('never shows another company: its figures, its departments, its header', async () => {
    const mine = await ask(week(), f.tokens.other);
    expect(mine.body.data.alarms!.total).toBe(1);
    expect(mine.body.data.credits!.total).toBe(5);
    expect(mine.body.data.departments.map((d) => d.name)).not.toContain('Pharmacy');
    const theirDepartment = await ask(week({ departmentId: String(f.departments.lab.id) }), f.tokens.other);
    expect(theirDepartment.body.msgCode).toBe(500);
    const header = await call(ctx.app, URL, week(), { token: f.tokens.other, companyId: f.company.id });
    expect(header.body).toMatchObject({
      msgCode: 500,
      msgContent: 'No permission for this service or operation',
    });
    const exportTheirs = await call(
      ctx.app,
      EXPORT,
      { ...week({ departmentId: String(f.departments.lab.id) }), chart: 'availability', format: 'csv' },
      { token: f.tokens.other },
    );
    expect(exportTheirs.body).toMatchObject({ msgCode: 500, msgContent: 'The department does not exist' });
  });

  it('gives each section only to those with the right over its data', async () => {
    const root = { id: f.departments.pharmacy.id };
    const cases: [string[], Record<string, boolean>][] = [
      [
        ['statistics:view'],
        { alarms: false, resolveTime: false, availability: false, notifications: false, credits: false },
      ],
      [
        ['statistics:view', 'alarm:view'],
        { alarms: true, resolveTime: true, availability: false, notifications: true, credits: false },
      ],
      [
        ['statistics:view', 'device:view'],
        { alarms: false, resolveTime: false, availability: true, notifications: false, credits: false },
      ],
      [
        ['statistics:view', 'billing:view'],
        { alarms: false, resolveTime: false, availability: false, notifications: false, credits: true },
      ],
    ];
    for (const [tags, shown] of cases) {
      const { body } = await ask(week(), await f.member(root, tags));
      expect(body.msgCode, tags.join()).toBe(200);
      const present = Object.fromEntries(
        Object.keys(shown).map((k) => [k, body.data[k as keyof Statistics] !== null]),
      );
      expect(present, tags.join()).toEqual(shown);
    }
    const without = await ask(week(), await f.member(root, ['alarm:view', 'device:view', 'billing:view']));
    expect(without.body).toMatchObject({
      msgCode: 500,
      msgContent: 'No permission for this service or operation',
    });
    const exportWithout = await call(
      ctx.app,
      EXPORT,
      { ...week(), chart: 'alarmsByType', format: 'csv' },
      {
        token: await f.member(root, ['statistics:view', 'device:view']),
      },
    );
    expect(exportWithout.body).toMatchObject({
      msgCode: 500,
      msgContent: 'No permission for this service or operation',
    });
  });

  it('refuses bad periods, zones and charts with a message naming the field', async () => {
    const backwards = await ask({ startTime: WEEK.endTime, endTime: WEEK.startTime });
    expect(backwards.body).toMatchObject({
      msgCode: 500,
      msgContent: 'End time must be after the start time',
    });
    const long = await ask({ startTime: 0, endTime: 367 * DAY }, f.tokens.admin, 'cn');
    expect(long.body).toMatchObject({ msgCode: 500, msgContent: '统计时间段最长为 366 天，请缩短时间段' });
    const zone = await ask(week({ timeZone: 'Mars/Olympus' }));
    expect(zone.body).toMatchObject({ msgCode: 500, msgContent: 'Time zone is not a known time zone' });
    const chart = await call(
      ctx.app,
      EXPORT,
      { ...week(), chart: 'pie', format: 'xlsx' },
      { token: f.tokens.admin },
    );
    expect(chart.body.msgCode).toBe(500);
    expect(chart.body.msgContent).toMatch(/^Select a chart/);
  });

  it('exports a chart as xlsx with the figures on the page, and writes it to the operation log', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: EXPORT,
      headers: { 'content-type': 'application/json', accessToken: f.tokens.admin, language: 'cn' },
      payload: JSON.stringify({ ...week(), chart: 'resolveTime', format: 'xlsx' }),
    });
    expect(response.headers['content-disposition']).toMatch(/statistics-resolveTime-20260301-20260307\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const rows = (workbook.worksheets[0]!.getSheetValues() as unknown[][])
      .filter(Boolean)
      .map((r) => r.slice(1));
    expect(rows[0]).toEqual([
      '部门',
      '已处理',
      '未处理',
      '中位数（分钟）',
      '90% 分位（分钟）',
      '最长（分钟）',
    ]);
    expect(rows.at(-1)).toEqual(['全部', 4, 1, 25, 44, 50]);
    expect(rows).toContainEqual(['Pharmacy', 2, 0, 20, 28, 30]);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, f.company.id), eq(auditLog.action, 'statistics.export')));
    expect(entry?.after).toMatchObject({ chart: 'resolveTime', format: 'xlsx', rows: 4 });

    const csv = await ctx.app.inject({
      method: 'POST',
      url: EXPORT,
      headers: { 'content-type': 'application/json', accessToken: f.tokens.admin },
      payload: JSON.stringify({ ...week(), chart: 'alarmsByType', format: 'csv' }),
    });
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Day,Over-limit alarm,Over-limit pre-alarm,Power outage,Offline,Total');
    expect(lines[2]).toBe('2026-03-02,1,0,0,1,2');
  });

  it('expects hours from when a device was added, and counts no reading from before', async () => {
    const halfWeek = new Date(WEEK.startTime + 3.5 * DAY);
    // d2 was added half-way through the week (its earlier readings were back-filled); d3 sent nothing.
    for (const d of [f.devices.d2, f.devices.d3])
      await ctx.app.db
        .update(devices)
        .set({ createdAt: halfWeek })
        .where(eq(devices.id, Number(d.id)));
    const { body } = await ask(week());
    const a = body.data.availability!;
    const of = (id: number) => a.rows.find((x) => x.departmentId === String(id));
    expect(of(f.departments.coldRoom.id)).toMatchObject({ expectedHours: 84, coveredHours: 84, ratio: 1 });
    expect(of(f.departments.lab.id)).toMatchObject({ expectedHours: 84, coveredHours: 0, ratio: 0 });
    expect(a.overall).toMatchObject({ expectedHours: 336, coveredHours: 168, ratio: 0.5 });
  });

  it('refuses the export to a member whose export permission is off', async () => {
    await ctx.app.db
      .update(companyMembers)
      .set({ exportExcel: false })
      .where(and(eq(companyMembers.companyId, f.other.id), eq(companyMembers.userId, f.other.admin.id)));
    const { body } = await call(
      ctx.app,
      EXPORT,
      { ...week(), chart: 'credits', format: 'csv' },
      { token: f.tokens.other },
    );
    expect(body.msgCode).toBe(500);
  });
});
