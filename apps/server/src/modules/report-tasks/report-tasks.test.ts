import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportRunView, ReportTaskView } from '@coldchain/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { manualClock, useClockedTestApp } from '../alarms/alarm-test-support';
import { companyMembers } from '../companies/companies.table';
import { equipment, equipmentTypes } from '../equipment/equipment.table';
import { jobs } from '../jobs/jobs.table';
import { departments } from '../org/org.table';
import { reportFiles } from '../reports/report-files.table';
import { REPORT_LINK_TTL_MS } from '../scheduled-reports/run-link';
import { mailTo } from '../scheduled-reports/scheduled-test-support';
import { readings } from '../telemetry/readings.table';
import { reportRuns } from './report-tasks.table';

const DAY = 86_400_000;
const smtp = await startSmtpSink();
const uploadDir = mkdtempSync(path.join(tmpdir(), 'report-tasks-'));
/** Small enough that a few dozen readings go as a link, and a handful as an attachment. */
const ATTACH_MAX = 700;

describe('data report backup tasks', () => {
  // Real time, so the reading partitions made for today hold the test's readings.
  const clock = manualClock(Math.floor(Date.now() / 1000) * 1000);
  const ctx = useClockedTestApp(clock, { smtpUrl: smtp.url, uploadDir, reportAttachMaxBytes: ATTACH_MAX });
  let token: string;
  let adminEmail: string;
  let device: Awaited<ReturnType<typeof buildDevice>>;
  let foreignDeviceId: string;
  let companyId: number;

  beforeAll(async () => {
    const company = await buildCompany(ctx.app.db, { name: 'Backup Co', services: ['service:dataBackup'] });
    companyId = company.id;
    adminEmail = company.admin.account;
    token = await login(ctx.app, company.admin.account);
    device = await buildDevice(ctx.app.db, company.id, { name: 'Vaccine fridge' });
    const other = await buildCompany(ctx.app.db, { services: ['service:dataBackup'] });
    foreignDeviceId = (await buildDevice(ctx.app.db, other.id)).id;
  });
  afterAll(async () => {
    await smtp.close?.();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const api = <T>(url: string, body: unknown, language: 'en' | 'cn' = 'en') =>
    call<T>(ctx.app, url, body, { token, language });

  async function addReadings(count: number, start: number) {
    await ctx.app.db.insert(readings).values(
      Array.from({ length: count }, (_, i) => ({
        sensorId: device.sensors[0]!.id,
        ts: new Date(start + i * 60_000),
        value: 4 + (i % 3) / 10,
      })),
    );
  }

  async function saveHistoryTask(fields: Record<string, unknown> = {}) {
    const { body } = await api<{ id: string }>('/api/report/saveTask', {
      name: 'Fridge history',
      type: 'history',
      frequency: 'daily',
      format: 'csv',
      deviceIds: [device.id],
      emails: ['qa@example.com'],
      timeZone: 'Asia/Shanghai',
      ...fields,
    });
    expect(body.msgCode).toBe(200);
    return body.data.id;
  }

  async function runs(taskId: string) {
    const { body } = await api<{ list: ReportRunView[]; total: number }>('/api/report/pageRuns', {
      taskId,
      pageNum: 1,
      pageSize: 20,
    });
    return body.data.list;
  }

  it('refuses bad tasks with a message naming the field, in both languages', async () => {
    const base = { name: 'T', type: 'audit', frequency: 'daily', format: 'csv', emails: ['a@example.com'] };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, name: '' }, /Name/],
      [{ ...base, frequency: 'hourly' }, /daily, weekly or monthly/],
      [{ ...base, emails: ['not-an-address'] }, /E-mail addresses/],
      [{ ...base, emails: [] }, /at least one recipient/],
      [{ ...base, type: 'history' }, /at least one device/],
      [{ ...base, timeZone: 'Mars/Olympus' }, /Time zone/],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await api('/api/report/saveTask', body);
      expect(status).toBe(200);
      expect(answer.msgCode).toBe(500);
      expect(answer.msgContent).toMatch(message);
    }
    const cn = await api('/api/report/saveTask', { ...base, frequency: 'hourly' }, 'cn');
    expect(cn.body.msgContent).toContain('每天、每周或每月');
    const foreign = await api('/api/report/saveTask', {
      ...base,
      type: 'history',
      deviceIds: [foreignDeviceId],
    });
    expect(foreign.body.msgContent).toBe('The device does not exist');
  });

  it('lists a saved task with its next run at 3 am in its time zone', async () => {
    const id = await saveHistoryTask();
    const { body } = await api<{ list: ReportTaskView[] }>('/api/report/pageTasks', {
      pageNum: 1,
      pageSize: 50,
    });
    const task = body.data.list.find((t) => t.id === id)!;
    expect(task).toMatchObject({
      name: 'Fridge history',
      type: 'history',
      frequency: 'daily',
      deviceIds: [device.id],
    });
    const next = new Date(task.nextRunTime);
    expect(next.getTime()).toBeGreaterThan(clock.now());
    expect(next.getTime() - clock.now()).toBeLessThanOrEqual(DAY);
    // 03:00 in Shanghai is 19:00 UTC.
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([19, 0]);
  });

  it('runs now: one file of the period, e-mailed as an attachment, listed and downloadable', async () => {
    const start = clock.now() - 2 * 3_600_000;
    await addReadings(3, start);
    const id = await saveHistoryTask({ name: 'Small history', emails: ['small@example.com'] });
    const { body } = await api<{ runId: string }>('/api/report/runTask', {
      id,
      startTime: start,
      endTime: start + 3_600_000,
    });
    expect(body.msgCode).toBe(200);
    // Queued, and this instance's worker woken at once.
    expect((await runs(id))[0]?.status).toMatch(/^(queued|running)$/);
    await ctx.app.jobs.runDue();
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'done', error: null });
    expect(run!.size).toBeGreaterThan(0);
    expect(run!.size).toBeLessThanOrEqual(ATTACH_MAX);
    expect(run!.duration).toBeGreaterThanOrEqual(0);
    expect(run!.fileName).toMatch(/^device-data-\d{8}-\d{8}\.csv$/);
    const received = await mailTo(smtp, 'small@example.com');
    expect(received.to).toEqual(['small@example.com']);
    expect(received.raw).toMatch(/Content-Disposition: attachment/i);
    expect(received.raw).toContain(run!.fileName!);
    const download = await ctx.app.inject({
      method: 'POST',
      url: '/api/report/downloadRun',
      headers: { 'content-type': 'application/json', accessToken: token, platform: '1' },
      payload: JSON.stringify({ id: run!.id }),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/text\/csv/);
    expect(download.body).toContain('Vaccine fridge');
    expect(download.body.split('\r\n').filter((l) => l.includes(device.serial))).toHaveLength(3);
    expect(Buffer.byteLength(download.rawPayload)).toBe(run!.size);
  });

  it('sends a signed link above REPORT_ATTACH_MAX_BYTES, which expires', async () => {
    const start = clock.now() - 5 * 3_600_000;
    await addReadings(60, start);
    const taskId = await saveHistoryTask({ name: 'Large history', emails: [adminEmail.toUpperCase()] });
    await api('/api/report/runTask', { id: taskId, startTime: start, endTime: start + 3_600_000 * 2 });
    await ctx.app.jobs.runDue();
    const [run] = await runs(taskId);
    expect(run!.status).toBe('done');
    expect(run!.size).toBeGreaterThan(ATTACH_MAX);
    const received = await mailTo(smtp, adminEmail.toLowerCase());
    expect(received.to).toEqual([adminEmail.toLowerCase()]);
    expect(received.raw).not.toMatch(/Content-Disposition: attachment/i);
    const url = /(http:\/\/\S+\/report-file\/\S+)/.exec(received.text)![1]!;
    const linkPath = new URL(url).pathname;
    const ok = await ctx.app.inject({ method: 'GET', url: linkPath });
    expect(ok.statusCode).toBe(200);
    expect(Buffer.byteLength(ok.rawPayload)).toBe(run!.size);
    const forged = linkPath.replace(/\.(\d+)\./, (_, expires: string) => `.${Number(expires) + 1}.`);
    expect((await ctx.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
    clock.advance(REPORT_LINK_TTL_MS - 1_000);
    expect((await ctx.app.inject({ method: 'GET', url: linkPath })).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await ctx.app.inject({ method: 'GET', url: linkPath })).statusCode).toBe(404);
  });

  it('runs a missed occurrence once when the server is back, for the period it was due for', async () => {
    const { body } = await api<{ id: string }>('/api/report/saveTask', {
      name: 'Audit daily',
      type: 'audit',
      frequency: 'daily',
      format: 'xlsx',
      emails: ['audit@example.com'],
      timeZone: 'Europe/Berlin',
    });
    const id = body.data.id;
    const tasks = await api<{ list: ReportTaskView[] }>('/api/report/pageTasks', {
      pageNum: 1,
      pageSize: 50,
    });
    const due = tasks.body.data.list.find((t) => t.id === id)!.nextRunTime;
    await ctx.app.jobs.runDue();
    expect(await runs(id)).toEqual([]);
    // The server was down over three occurrences and comes back at 9 am.
    clock.set(due + 2 * DAY + 6 * 3_600_000);
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();
    const after = await runs(id);
    expect(after).toHaveLength(1);
    expect(after[0]!.status).toBe('done');
    expect(after[0]!.fileName).toMatch(/\.xlsx$/);
    // The period is the day before the missed 3 am, Berlin midnight to midnight.
    expect(after[0]!.endTime).toBeLessThan(due);
    expect(due - after[0]!.endTime).toBe(3 * 3_600_000);
    const [row] = await ctx.app.db
      .select()
      .from(reportRuns)
      .where(eq(reportRuns.id, Number(after[0]!.id)));
    expect(row!.scheduledFor?.getTime()).toBe(due);
    // Next: the first 3 am after the server came back, and it runs there once.
    const again = await api<{ list: ReportTaskView[] }>('/api/report/pageTasks', {
      pageNum: 1,
      pageSize: 50,
    });
    const next = again.body.data.list.find((t) => t.id === id)!.nextRunTime;
    expect(next).toBe(due + 3 * DAY);
    clock.set(next);
    await ctx.app.jobs.runDue();
    expect(await runs(id)).toHaveLength(2);
  });

  it('ends a run its owner may no longer make as failed with the reason, without retrying it', async () => {
    const [root] = await ctx.app.db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)));
    const role = await buildRole(ctx.app.db, companyId, root!.id, [
      'backup:edit',
      'backup:view',
      'device:view',
    ]);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, companyId, member.id, false, { roleId: role.id });
    const memberToken = await login(ctx.app, member.account);
    const saved = await call<{ id: string }>(
      ctx.app,
      '/api/report/saveTask',
      {
        name: 'Owner leaves',
        type: 'history',
        frequency: 'weekly',
        format: 'csv',
        deviceIds: [device.id],
        emails: ['x@example.com'],
      },
      { token: memberToken },
    );
    expect(saved.body.msgCode).toBe(200);
    await ctx.app.db
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, member.id)));
    await api('/api/report/runTask', { id: saved.body.data.id });
    await ctx.app.jobs.runDue();
    const [run] = await runs(saved.body.data.id);
    expect(run).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/owner of this task has left/),
    });
    const [job] = await ctx.app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `report.run:${run!.id}`));
    expect(job).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('makes alarm and equipment record backups through their exports', async () => {
    const [type] = await ctx.app.db
      .insert(equipmentTypes)
      .values({ companyId, name: 'Cold room', code: '20' })
      .returning();
    const [room] = await ctx.app.db
      .insert(equipment)
      .values({ companyId, typeId: type!.id, serial: '200001', serialSuffix: '0001', name: 'Cold room 1' })
      .returning();
    for (const [fields, fileName] of [
      [{ type: 'alarm', deviceIds: [device.id] }, /^alarms-\d{8}-\d{8}\.xlsx$/],
      [{ type: 'equipment', equipmentIds: [String(room!.id)] }, /^equipment-records-\d+-\d{8}\.xlsx$/],
    ] as const) {
      const { body } = await api<{ id: string }>('/api/report/saveTask', {
        name: `Backup ${fields.type}`,
        frequency: 'weekly',
        format: 'xlsx',
        emails: ['records@example.com'],
        ...fields,
      });
      expect(body.msgCode).toBe(200);
      await api('/api/report/runTask', { id: body.data.id });
      await ctx.app.jobs.runDue();
      const [run] = await runs(body.data.id);
      expect(run).toMatchObject({ status: 'done', error: null, fileName: expect.stringMatching(fileName) });
      // The period just ended: last Monday to this Monday, midnight in the task's zone.
      expect(run!.endTime - run!.startTime).toBe(7 * DAY);
    }
  });

  it('makes a PDF backup kept among the generated files, which verifyReport knows', async () => {
    const { body } = await api<{ id: string }>('/api/report/saveTask', {
      name: 'Audit PDF',
      type: 'audit',
      frequency: 'monthly',
      format: 'pdf',
      emails: ['pdf@example.com'],
    });
    expect(body.msgCode).toBe(200);
    await api('/api/report/runTask', {
      id: body.data.id,
      startTime: clock.now() - DAY,
      endTime: clock.now(),
    });
    await ctx.app.jobs.runDue();
    const [run] = await runs(body.data.id);
    expect(run).toMatchObject({ status: 'done', error: null, fileName: expect.stringMatching(/\.pdf$/) });
    expect((await mailTo(smtp, 'pdf@example.com')).raw).toContain(run!.fileName!);
    const download = await ctx.app.inject({
      method: 'POST',
      url: '/api/report/downloadRun',
      headers: { 'content-type': 'application/json', accessToken: token, platform: '1' },
      payload: JSON.stringify({ id: run!.id }),
    });
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const sha = createHash('sha256').update(download.rawPayload).digest('hex');
    const [kept] = await ctx.app.db.select().from(reportFiles).where(eq(reportFiles.fileSha256, sha));
    expect(kept).toMatchObject({ companyId, kind: 'backup.audit', fileName: run!.fileName });
    const verified = await api<{ found: boolean; fileName: string }>('/api/report/verifyReport', {
      sha256: kept!.fingerprint,
    });
    expect(verified.body.data).toMatchObject({ found: true, fileName: run!.fileName });
  });

  it('shows a department member only their own tasks and runs, and deletes a task but not its files', async () => {
    const adminTask = await saveHistoryTask({ name: 'Whole company' });
    await api('/api/report/runTask', {
      id: adminTask,
      startTime: clock.now() - 3_600_000,
      endTime: clock.now(),
    });
    await ctx.app.jobs.runDue();
    const [adminRun] = await runs(adminTask);
    expect(adminRun!.status).toBe('done');
    const ward = await buildDepartment(ctx.app.db, companyId, { name: 'Ward 3' });
    const role = await buildRole(ctx.app.db, companyId, ward.id, [
      'backup:view',
      'backup:edit',
      'audit:view',
    ]);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, companyId, member.id, false, { departmentId: ward.id, roleId: role.id });
    const memberToken = await login(ctx.app, member.account);
    const as = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token: memberToken });
    const own = await as<{ id: string }>('/api/report/saveTask', {
      name: 'Ward audit',
      type: 'audit',
      frequency: 'monthly',
      format: 'csv',
      emails: ['ward@example.com'],
    });
    expect(own.body.msgCode).toBe(200);
    const tasks = await as<{ list: ReportTaskView[] }>('/api/report/pageTasks', {
      pageNum: 1,
      pageSize: 100,
    });
    expect(tasks.body.data.list.map((t) => t.id)).toEqual([own.body.data.id]);
    const memberRuns = await as<{ list: ReportRunView[] }>('/api/report/pageRuns', {
      pageNum: 1,
      pageSize: 100,
    });
    expect(memberRuns.body.data.list).toEqual([]);
    expect((await as('/api/report/downloadRun', { id: adminRun!.id })).body.msgContent).toBe(
      'The backup run does not exist',
    );
    expect((await as('/api/report/runTask', { id: adminTask })).body.msgContent).toBe(
      'The backup task does not exist',
    );
    // The member's device list is empty: a device outside their department is refused.
    const outside = await as('/api/report/saveTask', {
      name: 'Not mine',
      type: 'history',
      frequency: 'daily',
      format: 'csv',
      deviceIds: [device.id],
      emails: ['ward@example.com'],
    });
    expect(outside.body.msgContent).toBe('The device does not exist');

    const [stored] = await ctx.app.db
      .select()
      .from(reportRuns)
      .where(eq(reportRuns.id, Number(adminRun!.id)));
    const file = path.join(uploadDir, 'reports', stored!.storedName!);
    expect(existsSync(file)).toBe(true);
    expect((await api('/api/report/deleteTask', { id: adminTask })).body.msgCode).toBe(200);
    // The file stays among the company's generated files (data centre); the runs go.
    expect(existsSync(file)).toBe(true);
    expect(await runs(adminTask)).toEqual([]);
  });
});
