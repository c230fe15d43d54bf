import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OperationFigures, OperationRunView, OperationTaskView } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
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
import { alarmRecords } from '../alarms/alarms.table';
import { companyMembers } from '../companies/companies.table';
import { jobs } from '../jobs/jobs.table';
import { reportFiles } from '../reports/report-files.table';
import { REPORT_LINK_TTL_MS } from '../scheduled-reports/run-link';
import { mailTo } from '../scheduled-reports/scheduled-test-support';
import { operationReportRuns } from './operation-reports.table';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const smtp = await startSmtpSink();
const uploadDir = mkdtempSync(path.join(tmpdir(), 'operation-reports-'));

// Closed after both apps of this file (each describe block has its own).
afterAll(async () => {
  await smtp.close?.();
  rmSync(uploadDir, { recursive: true, force: true });
});

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)));
  return text.join('\n').replace(/[ \t]+/g, ' ');
}

describe('operation report tasks', () => {
  // 2026-06-10 09:00 UTC; the company's alarms are on 2026-06-09.
  const clock = manualClock(Date.UTC(2026, 5, 10, 9));
  const ctx = useClockedTestApp(clock, { smtpUrl: smtp.url, uploadDir });
  const tokens: Record<'admin' | 'wardA' | 'viewer' | 'foreign' | 'noRight', string> = {} as never;
  let wardA: { id: number };
  let wardB: { id: number };
  let wardAMember: number;
  let wardBMember: number;
  let companyId: number;

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db, {
      name: 'Matrix Hospital',
      services: ['service:operationReport'],
    });
    companyId = company.id;
    wardA = await buildDepartment(db, company.id, { name: 'Ward A' });
    wardB = await buildDepartment(db, company.id, { name: 'Ward B' });
    const fridge = await buildDevice(db, company.id, { name: 'Ward A fridge', departmentId: wardA.id });
    await buildDevice(db, company.id, { name: 'Ward B fridge', departmentId: wardB.id });
    await db.insert(alarmRecords).values({
      companyId: company.id,
      deviceId: Number(fridge.id),
      sensorId: fridge.sensors[0]!.id,
      alarmType: 'overLimit',
      level: 2,
      alarmTime: new Date(Date.UTC(2026, 5, 9, 10)),
      excursionStart: new Date(Date.UTC(2026, 5, 9, 10)),
      dedupeKey: 'matrix:1',
      content: { en: 'Too warm', cn: '温度过高' },
      resolveState: 3,
      resolveTime: new Date(Date.UTC(2026, 5, 9, 10, 45)),
    });
    tokens.admin = await login(ctx.app, company.admin.account);
    const editor = await buildRole(db, company.id, wardA.id, ['report:view', 'report:edit']);
    const viewer = await buildRole(db, company.id, wardA.id, ['report:view']);
    const plain = await buildRole(db, company.id, wardA.id, ['device:view']);
    const wardBRole = await buildRole(db, company.id, wardB.id, ['report:view']);
    const people = [] as number[];
    for (const [key, role, dept] of [
      ['wardA', editor, wardA],
      ['viewer', viewer, wardA],
      ['noRight', plain, wardA],
      [null, wardBRole, wardB],
    ] as const) {
      const user = await buildUser(db);
      await addMember(db, company.id, user.id, false, { departmentId: dept.id, roleId: role.id });
      if (key) tokens[key] = await login(ctx.app, user.account);
      people.push(user.id);
    }
    wardAMember = people[0]!;
    wardBMember = people[3]!;
    const other = await buildCompany(db, { name: 'Other Co', services: ['service:operationReport'] });
    tokens.foreign = await login(ctx.app, other.admin.account);
  });

  const api = <T>(
    url: string,
    body: unknown,
    who: keyof typeof tokens = 'admin',
    language: 'en' | 'cn' = 'en',
  ) => call<T>(ctx.app, `/api/operationReport/${url}`, body, { token: tokens[who], language });
  const base = {
    name: 'Daily summary',
    duration: 'day',
    startDate: '2026-06-01',
    startHour: 0,
    timeZone: 'UTC',
    emails: ['qa@example.com'],
  };

  async function save(fields: Record<string, unknown> = {}, who: keyof typeof tokens = 'admin') {
    const { body } = await api<{ id: string }>('saveTask', { ...base, ...fields }, who);
    expect(body.msgCode).toBe(200);
    return body.data.id;
  }
  async function runsOf(taskId: string, who: keyof typeof tokens = 'admin') {
    const { body } = await api<{ list: OperationRunView[]; total: number }>(
      'pageRuns',
      { taskId, pageNum: 1, pageSize: 50 },
      who,
    );
    return body.data.list;
  }
  function download(id: string, who: keyof typeof tokens = 'admin') {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/operationReport/downloadRun',
      headers: { 'content-type': 'application/json', accessToken: tokens[who], platform: '1' },
      payload: JSON.stringify({ id }),
    });
  }

  it('refuses bad tasks with a message naming the field, in both languages', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /Name/],
      [{ duration: 'year' }, /day, week or month/],
      [{ startDate: '2026-02-30' }, /Start date/],
      [{ startHour: 24 }, /Start hour/],
      [{ emails: [] }, /at least one notifier/],
      [{ emails: ['nope'] }, /E-mail addresses/],
      [{ timeZone: 'Mars/Olympus' }, /Time zone/],
    ];
    for (const [fields, message] of cases) {
      const { status, body } = await api('saveTask', { ...base, ...fields });
      expect(status).toBe(200);
      expect(body.msgCode).toBe(500);
      expect(body.msgContent).toMatch(message);
    }
    const cn = await api('saveTask', { ...base, duration: 'year' }, 'admin', 'cn');
    expect(cn.body.msgContent).toContain('天、周或月');
  });

  it('lists a saved task with its scope, notifiers and the end of the period in progress', async () => {
    const id = await save({
      name: 'Ward A weekly',
      duration: 'week',
      departmentId: String(wardA.id),
      notifierIds: [String(wardAMember)],
    });
    const { body } = await api<{ list: OperationTaskView[]; total: number }>('pageTasks', {
      pageNum: 1,
      pageSize: 50,
    });
    const task = body.data.list.find((t) => t.id === id)!;
    expect(task).toMatchObject({
      name: 'Ward A weekly',
      departmentName: 'Ward A',
      duration: 'week',
      startDate: '2026-06-01',
      notifierIds: [String(wardAMember)],
      notifierNames: [expect.any(String)],
    });
    // Periods from Monday 1 June: the one in progress on 10 June ends on the 15th.
    expect(new Date(task.nextRunTime).toISOString()).toBe('2026-06-15T00:00:00.000Z');
  });

  it('runs now: a PDF of the day just ended, e-mailed, listed, downloadable, with its figures and in the data centre', async () => {
    const id = await save({ name: 'Run now', emails: ['now@example.com'] });
    const { body } = await api<{ runId: string }>('runTask', { id });
    expect(body.msgCode).toBe(200);
    await ctx.app.jobs.runDue();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({
      status: 'done',
      error: null,
      startTime: Date.UTC(2026, 5, 9),
      endTime: Date.UTC(2026, 5, 10),
      fileName: 'operation-report-20260609-20260610.pdf',
      departmentName: null,
    });
    const mail = await mailTo(smtp, 'now@example.com');
    expect(mail.raw).toMatch(/Content-Disposition: attachment/i);
    expect(mail.raw).toContain('operation-report-20260609-20260610.pdf');
    const file = await download(run!.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.length).toBe(run!.size);
    const text = await pdfText(file.rawPayload);
    expect(text).toContain('Matrix Hospital');
    expect(text).toMatch(/Median\s+45 min/);
    const figures = await api<{ taskName: string; figures: OperationFigures }>('runFigures', { id: run!.id });
    expect(figures.body.data.taskName).toBe('Run now');
    expect(figures.body.data.figures).toMatchObject({
      devices: { total: 2 },
      alarms: { total: 1, byType: [{ alarmType: 'overLimit', level2: 1, total: 1 }] },
      resolution: { resolved: 1, medianMs: 45 * 60_000, worstMs: 45 * 60_000 },
    });
    const [stored] = await ctx.app.db
      .select()
      .from(reportFiles)
      .where(and(eq(reportFiles.companyId, companyId), eq(reportFiles.kind, 'operation')));
    expect(stored).toMatchObject({
      fileName: run!.fileName,
      size: run!.size,
      generatedByName: 'Operation report task "Run now"',
    });
  });

  it('keeps departments and companies apart', async () => {
    const companyTask = await save({ name: 'Company daily' });
    await api('runTask', { id: companyTask });
    await ctx.app.jobs.runDue();
    const [companyRun] = await runsOf(companyTask);
    // A ward A editor: their ward only; not the company, not ward B, notifiers who see ward A.
    expect((await api('saveTask', { ...base }, 'wardA')).body.msgContent).toBe(
      'No permission for this service or operation',
    );
    expect(
      (await api('saveTask', { ...base, departmentId: String(wardB.id) }, 'wardA')).body.msgContent,
    ).toBe('The department does not exist');
    expect(
      (
        await api(
          'saveTask',
          { ...base, departmentId: String(wardA.id), notifierIds: [String(wardBMember)] },
          'wardA',
        )
      ).body.msgContent,
    ).toBe('A notifier is not a member who may see this department');
    const wardTask = await save({ name: 'Ward A own', departmentId: String(wardA.id) }, 'wardA');
    const listed = await api<{ list: OperationTaskView[] }>(
      'pageTasks',
      { pageNum: 1, pageSize: 50 },
      'wardA',
    );
    expect(listed.body.data.list.every((t) => t.departmentName === 'Ward A')).toBe(true);
    expect(listed.body.data.list.map((t) => t.id)).toContain(wardTask);
    expect((await api('runFigures', { id: companyRun!.id }, 'wardA')).body.msgContent).toBe(
      'The operation report does not exist',
    );
    expect((await download(companyRun!.id, 'wardA')).json().msgContent).toBe(
      'The operation report does not exist',
    );
    expect((await api('runTask', { id: companyTask }, 'wardA')).body.msgContent).toBe(
      'The operation report task does not exist',
    );
    expect(await runsOf(companyTask, 'wardA')).toEqual([]);
    // A viewer reads but does not change; a member without the tag does neither.
    expect((await api('pageTasks', { pageNum: 1, pageSize: 5 }, 'viewer')).body.msgCode).toBe(200);
    expect((await api('runTask', { id: wardTask }, 'viewer')).body.msgContent).toBe(
      'No permission for this service or operation',
    );
    expect((await api('pageRuns', { pageNum: 1, pageSize: 5 }, 'noRight')).body.msgContent).toBe(
      'No permission for this service or operation',
    );
    // Another company sees nothing of this one.
    const foreignList = await api<{ list: unknown[]; total: number }>(
      'pageTasks',
      { pageNum: 1, pageSize: 50 },
      'foreign',
    );
    expect(foreignList.body.data.total).toBe(0);
    expect((await api('runFigures', { id: companyRun!.id }, 'foreign')).body.msgContent).toBe(
      'The operation report does not exist',
    );
    expect((await download(companyRun!.id, 'foreign')).json().msgContent).toBe(
      'The operation report does not exist',
    );
    expect((await api('deleteTask', { id: companyTask }, 'foreign')).body.msgContent).toBe(
      'The operation report task does not exist',
    );
    expect(
      (await api('saveTask', { ...base, departmentId: String(wardA.id) }, 'foreign')).body.msgContent,
    ).toBe('The department does not exist');
    // Deleting the task keeps its PDF among the company's files.
    expect((await api('deleteTask', { id: companyTask })).body.msgCode).toBe(200);
    const kept = await ctx.app.db
      .select()
      .from(reportFiles)
      .where(eq(reportFiles.fileName, companyRun!.fileName!));
    expect(kept.length).toBeGreaterThan(0);
  });

  it('runs each scheduled period once, and a missed one once when the server is back', async () => {
    const id = await save({
      name: 'Scheduled',
      startDate: '2026-06-10',
      startHour: 12,
      emails: ['sched@example.com'],
    });
    const due = Date.UTC(2026, 5, 11, 12);
    await ctx.app.jobs.runDue();
    expect(await runsOf(id)).toEqual([]);
    // Down over three run instants; back a little after the third.
    clock.set(due + 2 * DAY + HOUR);
    await Promise.all([ctx.app.jobs.runDue(), ctx.app.jobs.runDue()]);
    await ctx.app.jobs.runDue();
    const after = await runsOf(id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'done', startTime: due - DAY, endTime: due });
    const [row] = await ctx.app.db
      .select()
      .from(operationReportRuns)
      .where(eq(operationReportRuns.id, Number(after[0]!.id)));
    expect(row!.scheduledFor?.getTime()).toBe(due);
    const tasks = await api<{ list: OperationTaskView[] }>('pageTasks', { pageNum: 1, pageSize: 50 });
    const next = tasks.body.data.list.find((t) => t.id === id)!.nextRunTime;
    expect(next).toBe(due + 3 * DAY);
    clock.set(next);
    await ctx.app.jobs.runDue();
    const again = await runsOf(id);
    expect(again).toHaveLength(2);
    expect(again[0]).toMatchObject({ startTime: next - DAY, endTime: next });
    clock.set(Date.UTC(2026, 5, 10, 9));
  });

  it('ends a run whose owner left as failed with the reason, without retrying it', async () => {
    const id = await save({ name: 'Owner leaves', departmentId: String(wardA.id) }, 'wardA');
    await ctx.app.db
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, wardAMember)));
    await api('runTask', { id });
    await ctx.app.jobs.runDue();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/owner of this task has left/),
    });
    const [job] = await ctx.app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `operationReport.run:${run!.id}`));
    expect(job).toMatchObject({ status: 'done', attempts: 1 });
  });
});

describe('operation reports above REPORT_ATTACH_MAX_BYTES', () => {
  const clock = manualClock(Date.UTC(2026, 5, 10, 9));
  // A report PDF is some tens of KB: every one goes as a link here.
  const ctx = useClockedTestApp(clock, { smtpUrl: smtp.url, uploadDir, reportAttachMaxBytes: 1_000 });

  it('sends a signed link, which opens the PDF until it expires', async () => {
    const company = await buildCompany(ctx.app.db, {
      name: 'Link Co',
      services: ['service:operationReport'],
    });
    const token = await login(ctx.app, company.admin.account);
    const api = <T>(url: string, body: unknown) =>
      call<T>(ctx.app, `/api/operationReport/${url}`, body, { token });
    const saved = await api<{ id: string }>('saveTask', {
      name: 'Large',
      duration: 'day',
      startDate: '2026-06-01',
      emails: ['large@example.com'],
    });
    await api('runTask', { id: saved.body.data.id });
    await ctx.app.jobs.runDue();
    const runs = await api<{ list: OperationRunView[] }>('pageRuns', { pageNum: 1, pageSize: 5 });
    const run = runs.body.data.list[0]!;
    expect([run.status, run.error]).toEqual(['done', null]);
    const mail = await mailTo(smtp, 'large@example.com');
    expect(mail.raw).not.toMatch(/Content-Disposition: attachment/i);
    const url = /(http:\/\/\S+\/operation-report-file\/\S+)/.exec(mail.text)![1]!;
    const linkPath = new URL(url).pathname;
    const got = await ctx.app.inject({ method: 'GET', url: linkPath });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.length).toBe(run.size);
    // The backup runs' link path does not open an operation report, nor does a forged expiry.
    const asBackup = linkPath.replace('/operation-report-file/', '/report-file/');
    expect((await ctx.app.inject({ method: 'GET', url: asBackup })).statusCode).toBe(404);
    const forged = linkPath.replace(/\.(\d+)\./, (_, e: string) => `.${Number(e) + 1}.`);
    expect((await ctx.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
    clock.advance(REPORT_LINK_TTL_MS - 1_000);
    expect((await ctx.app.inject({ method: 'GET', url: linkPath })).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await ctx.app.inject({ method: 'GET', url: linkPath })).statusCode).toBe(404);
  });
});
