import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, ReportFileView, VerifyReportAnswer } from '@coldchain/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAuth } from '../../plugins/auth';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { statementsOf } from '../../test/statement-log';
import { operationReportRuns, operationReportTasks } from '../operation-reports/operation-reports.table';
import { reportRuns, reportTasks } from '../report-tasks/report-tasks.table';
import { recordExportPdf, recordReportFile } from '../reports/report-files.service';
import { pageFiles } from './data-center.service';

const uploadDir = mkdtempSync(path.join(tmpdir(), 'data-center-'));
const HOUR = 3_600_000;

describe('data centre: generated files of the company', () => {
  const ctx = useTestApp({ uploadDir });
  const t0 = Date.UTC(2026, 9, 1, 8);
  let companyId: number;
  let adminToken: string;
  let foreignToken: string;
  let foreignCompanyId: number;
  /** Member of the Pharmacy department with report, device and backup rights. */
  let memberToken: string;
  let memberId: number;
  let pharmacyId: number;
  /** File ids by name. */
  const ids: Record<string, string> = {};

  const post = <T>(token: string, url: string, body: unknown, language: 'en' | 'cn' = 'en') =>
    call<T>(ctx.app, url, body, { token, language });
  const list = async (token: string, body: Record<string, unknown> = {}) => {
    const { body: answer } = await post<Page<ReportFileView>>(token, '/api/dataCenter/pageFiles', {
      pageNum: 1,
      pageSize: 50,
      ...body,
    });
    expect(answer.msgCode, answer.msgContent).toBe(200);
    return answer.data;
  };
  const names = async (token: string, body: Record<string, unknown> = {}) =>
    (await list(token, body)).list.map((f) => f.fileName);
  const download = (token: string, id: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/dataCenter/downloadFile',
      headers: { 'content-type': 'application/json', platform: '1', accessToken: token, language: 'en' },
      payload: JSON.stringify({ id }),
    } as InjectOptions);

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db, { name: 'Files Co' });
    companyId = company.id;
    adminToken = await login(ctx.app, company.admin.account);
    const pharmacy = await buildDepartment(db, company.id, { name: 'Pharmacy' });
    pharmacyId = pharmacy.id;
    const role = await buildRole(db, company.id, pharmacy.id, [
      'report:view',
      'device:view',
      'backup:view',
      'backup:edit',
    ]);
    const member = await buildUser(db, { name: 'Pharmacist' });
    memberId = member.id;
    await addMember(db, company.id, member.id, false, { departmentId: pharmacy.id, roleId: role.id });
    memberToken = await login(ctx.app, member.account);
    const other = await buildCompany(db, { name: 'Other Co' });
    foreignCompanyId = other.id;
    foreignToken = await login(ctx.app, other.admin.account);

    const store = async (
      name: string,
      fields: { kind: string; at: number; by: number | null; company?: number; format?: 'csv' | 'pdf' },
    ) => {
      const format = fields.format ?? 'csv';
      const { id, storedPath } = await recordReportFile(db, ctx.app.files, {
        companyId: fields.company ?? company.id,
        kind: fields.kind,
        fileName: `${name}.${format}`,
        format,
        bytes: Buffer.from(`time,value\n${name},4.2\n`),
        generatedBy: fields.by,
        generatedByName: fields.by ? 'Someone' : 'Backup task "Nightly"',
        generatedAt: new Date(fields.at),
      });
      ids[name] = String(id);
      return storedPath;
    };
    await store('admin-sensor-report', { kind: 'sensorReport', at: t0, by: company.admin.id, format: 'pdf' });
    await store('alarm-backup', { kind: 'backup.alarm', at: t0 + HOUR, by: null });
    await store('history-backup', { kind: 'backup.history', at: t0 + 2 * HOUR, by: null });
    await store('audit-backup', { kind: 'backup.audit', at: t0 + 3 * HOUR, by: null });
    await store('member-sensor-report', { kind: 'sensorReport', at: t0 + 4 * HOUR, by: member.id });
    await store('member-audit-export', {
      kind: 'audit.exportOperationLog',
      at: t0 + 5 * HOUR,
      by: member.id,
    });
    await store('operation-report', { kind: 'operationReport', at: t0 + 6 * HOUR, by: null });
    await store('foreign-report', {
      kind: 'sensorReport',
      at: t0 + 7 * HOUR,
      by: other.admin.id,
      company: other.id,
    });
    // A PDF export handed out on the spot: recorded with its fingerprint, no file kept.
    await recordExportPdf(db, { companyId: company.id, userId: company.admin.id }, 'alarm.export', {
      body: Buffer.from('%PDF-1.7 export'),
      filename: 'alarm-export.pdf',
      fingerprint: 'a'.repeat(64),
    });
    // The member's backup task made the history backup: its run names the stored file.
    const [task] = await db
      .insert(reportTasks)
      .values({
        companyId: company.id,
        ownerId: member.id,
        name: 'Nightly',
        type: 'history',
        frequency: 'daily',
        format: 'csv',
        emails: ['qa@example.com'],
        nextRunAt: new Date(t0 + 86_400_000),
      })
      .returning();
    const historyPath = (
      await db.query.reportFiles.findFirst({ where: (f, { eq }) => eq(f.id, Number(ids['history-backup'])) })
    )?.storedPath;
    await db.insert(reportRuns).values({
      companyId: company.id,
      taskId: task!.id,
      status: 'done',
      periodStart: new Date(t0 - 86_400_000),
      periodEnd: new Date(t0),
      storedName: path.basename(historyPath!),
      fileName: 'history-backup.csv',
    });
  });
  afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));

  it('lists every generated file of the company, newest first, and nothing of another company', async () => {
    const page = await list(adminToken);
    expect(page.list.map((f) => f.fileName)).toEqual([
      'alarm-export.pdf',
      'operation-report.csv',
      'member-audit-export.csv',
      'member-sensor-report.csv',
      'audit-backup.csv',
      'history-backup.csv',
      'alarm-backup.csv',
      'admin-sensor-report.pdf',
    ]);
    expect(page.total).toBe(8);
    const report = page.list.find((f) => f.fileName === 'member-sensor-report.csv')!;
    const bytes = Buffer.from('time,value\nmember-sensor-report,4.2\n');
    expect(report).toMatchObject({
      kind: 'sensorReport',
      size: bytes.length,
      fileSha256: createHash('sha256').update(bytes).digest('hex'),
      generatedAt: t0 + 4 * HOUR,
      generatedBy: 'Someone',
      stored: true,
    });
    expect(page.list[0]).toMatchObject({ kind: 'alarm.export', stored: false, fingerprint: 'a'.repeat(64) });
    expect(await names(foreignToken)).toEqual(['foreign-report.csv']);
    // Paging keeps the order and the total.
    const second = await list(adminToken, { pageNum: 2, pageSize: 3 });
    expect(second.list.map((f) => f.fileName)).toEqual([
      'member-sensor-report.csv',
      'audit-backup.csv',
      'history-backup.csv',
    ]);
    expect(second.total).toBe(8);
  });

  it('filters by kind or kind group, by name and by the period of generation', async () => {
    expect(await names(adminToken, { kind: 'backup' })).toEqual([
      'audit-backup.csv',
      'history-backup.csv',
      'alarm-backup.csv',
    ]);
    expect(await names(adminToken, { kind: 'backup.alarm' })).toEqual(['alarm-backup.csv']);
    expect(await names(adminToken, { kind: 'sensorReport' })).toEqual([
      'member-sensor-report.csv',
      'admin-sensor-report.pdf',
    ]);
    // `backup` must not match a kind that only starts with the same letters.
    expect(await names(adminToken, { kind: 'back' })).toEqual([]);
    expect(await names(adminToken, { keyword: 'SENSOR' })).toEqual([
      'member-sensor-report.csv',
      'admin-sensor-report.pdf',
    ]);
    // `%` and `_` are letters in a name, not patterns.
    expect(await names(adminToken, { keyword: '%' })).toEqual([]);
    expect(await names(adminToken, { startTime: t0 + HOUR, endTime: t0 + 3 * HOUR })).toEqual([
      'history-backup.csv',
      'alarm-backup.csv',
    ]);
  });

  it('runs one statement per page whatever the filters, with the same text', async () => {
    const auth = await resolveAuth(ctx.app.db, memberToken, undefined, 3_600_000);
    const texts = new Set<string>();
    for (const query of [
      { pageNum: 1, pageSize: 20 },
      { pageNum: 2, pageSize: 5, kind: 'backup', keyword: 'x', startTime: 1, endTime: t0 },
    ]) {
      const { result, statements } = await statementsOf(ctx.app.db, () => pageFiles(ctx.app.db, auth, query));
      expect(result.pageNum).toBe(query.pageNum);
      expect(statements).toHaveLength(1);
      texts.add(statements[0]!);
    }
    expect(texts.size).toBe(1);
  });

  it("limits a department member to their own files and their tasks' runs, and to data they may read", async () => {
    // Not the administrator's report, nor backups of tasks others own; not the audit export
    // they made, since they no longer hold audit:view; the history backup of their own task.
    expect(await names(memberToken)).toEqual(['member-sensor-report.csv', 'history-backup.csv']);
    const hidden = await post(memberToken, '/api/dataCenter/downloadFile', {
      id: ids['admin-sensor-report'],
    });
    expect(hidden.body).toMatchObject({ msgCode: 500, msgContent: 'The file does not exist' });
    const audit = await post(memberToken, '/api/dataCenter/downloadFile', { id: ids['member-audit-export'] });
    expect(audit.body.msgContent).toBe('The file does not exist');
    const own = await download(memberToken, ids['history-backup']!);
    expect(own.statusCode).toBe(200);
    expect(own.body).toBe('time,value\nhistory-backup,4.2\n');
  });

  it('streams a stored file with its name and hash, and explains files it cannot hand out', async () => {
    const response = await download(adminToken, ids['admin-sensor-report']!);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('admin-sensor-report.pdf');
    const bytes = Buffer.from('time,value\nadmin-sensor-report,4.2\n');
    expect(response.rawPayload.equals(bytes)).toBe(true);
    expect(response.headers['x-report-file-sha256']).toBe(createHash('sha256').update(bytes).digest('hex'));

    const page = await list(adminToken, { kind: 'alarm' });
    const exported = page.list.find((f) => !f.stored)!;
    const notKept = await post(adminToken, '/api/dataCenter/downloadFile', { id: exported.id }, 'cn');
    expect(notKept.body.msgContent).toBe('该导出文件在生成时已直接下载，服务器未保存文件，仅记录了其指纹');

    const row = await ctx.app.db.query.reportFiles.findFirst({
      where: (f, { eq }) => eq(f.id, Number(ids['alarm-backup'])),
    });
    unlinkSync(path.join(uploadDir, row!.storedPath!));
    const gone = await post(adminToken, '/api/dataCenter/downloadFile', { id: ids['alarm-backup'] });
    expect(gone.body).toMatchObject({ msgCode: 500, msgContent: 'The file is no longer available' });
  });

  it("keeps another company's files out of reach, whatever id or company header is sent", async () => {
    const foreign = await post(foreignToken, '/api/dataCenter/downloadFile', {
      id: ids['admin-sensor-report'],
    });
    expect(foreign.body).toMatchObject({ msgCode: 500, msgContent: 'The file does not exist' });
    const ours = await post(adminToken, '/api/dataCenter/downloadFile', { id: ids['foreign-report'] });
    expect(ours.body.msgContent).toBe('The file does not exist');
    const header = await call(
      ctx.app,
      '/api/dataCenter/pageFiles',
      { pageNum: 1, pageSize: 20 },
      { token: foreignToken, companyId, language: 'en' },
    );
    expect(header.body).toMatchObject({ msgCode: 500, data: null });
    expect(JSON.stringify(header.body)).not.toContain('sensor-report');
    // The verify box finds a company's own file by its hash, and not another company's.
    const sha = (await list(adminToken, { keyword: 'member-sensor' })).list[0]!.fileSha256;
    const found = await post<VerifyReportAnswer>(adminToken, '/api/report/verifyReport', { sha256: sha });
    expect(found.body.data).toMatchObject({ found: true, fileName: 'member-sensor-report.csv' });
    const notOurs = await post<VerifyReportAnswer>(foreignToken, '/api/report/verifyReport', { sha256: sha });
    expect(notOurs.body.data.found).toBe(false);
    expect(foreignCompanyId).not.toBe(companyId);
  });

  it('needs report:view for both calls, and names the field of a bad filter', async () => {
    const company = await ctx.app.db.query.companies.findFirst({ where: (c, { eq }) => eq(c.id, companyId) });
    expect(company).toBeTruthy();
    const noRight = await buildUser(ctx.app.db);
    const dept = await buildDepartment(ctx.app.db, companyId);
    const role = await buildRole(ctx.app.db, companyId, dept.id, [
      'device:view',
      'backup:view',
      'audit:view',
    ]);
    await addMember(ctx.app.db, companyId, noRight.id, false, { departmentId: dept.id, roleId: role.id });
    const token = await login(ctx.app, noRight.account);
    for (const [url, body] of [
      ['/api/dataCenter/pageFiles', { pageNum: 1, pageSize: 20 }],
      ['/api/dataCenter/downloadFile', { id: ids['member-sensor-report'] }],
    ] as const) {
      const { body: answer } = await post(token, url, body);
      expect(answer).toEqual({
        msgCode: 500,
        msgContent: 'No permission for this service or operation',
        data: null,
      });
    }
    const badKind = await post(adminToken, '/api/dataCenter/pageFiles', { kind: "x' or 1=1" });
    expect(badKind.body).toMatchObject({ msgCode: 500 });
    expect(badKind.body.msgContent).toMatch(/^File kind must be a file kind/);
    const badPeriod = await post(
      adminToken,
      '/api/dataCenter/pageFiles',
      { startTime: t0, endTime: t0 - 1 },
      'cn',
    );
    expect(badPeriod.body.msgContent).toMatch(/必须晚于开始时间/);
    const badId = await post(adminToken, '/api/dataCenter/downloadFile', { id: 'abc' });
    expect(badId.body.msgCode).toBe(500);
    expect(memberId).toBeGreaterThan(0);
  });

  it('shows a department member the operation reports of their department and below, and equipment reports only with equipment:view', async () => {
    const db = ctx.app.db;
    const ward = await buildDepartment(db, companyId, { name: 'Ward', parentId: pharmacyId });
    const lab = await buildDepartment(db, companyId, { name: 'Lab' });
    const at = t0 + 20 * HOUR;
    const operationFile = async (name: string, departmentId: number | null, offset: number) => {
      const { id } = await recordReportFile(db, ctx.app.files, {
        companyId,
        kind: 'operation',
        fileName: `${name}.pdf`,
        format: 'pdf',
        bytes: Buffer.from(`%PDF ${name}`),
        generatedBy: null,
        generatedByName: `Operation report "${name}"`,
        generatedAt: new Date(at + offset),
      });
      ids[name] = String(id);
      const [task] = await db
        .insert(operationReportTasks)
        .values({
          companyId,
          ownerId: memberId,
          name,
          departmentId,
          duration: 'day',
          startDate: '2026-10-01',
          nextRunAt: new Date(t0 + 86_400_000),
        })
        .returning();
      await db.insert(operationReportRuns).values({
        companyId,
        taskId: task!.id,
        status: 'done',
        periodStart: new Date(t0 - 86_400_000),
        periodEnd: new Date(t0),
        reportFileId: id,
        fileName: `${name}.pdf`,
      });
    };
    await operationFile('pharmacy-operation', pharmacyId, 1);
    await operationFile('ward-operation', ward.id, 2);
    await operationFile('lab-operation', lab.id, 3);
    await operationFile('company-operation', null, 4);
    // Not a run's file, so no task's scope opens it.
    await recordReportFile(db, ctx.app.files, {
      companyId,
      kind: 'operation',
      fileName: 'loose-operation.pdf',
      format: 'pdf',
      bytes: Buffer.from('%PDF loose'),
      generatedBy: null,
      generatedByName: 'Nobody',
      generatedAt: new Date(at + 5),
    });

    expect(await names(memberToken, { kind: 'operation' })).toEqual([
      'ward-operation.pdf',
      'pharmacy-operation.pdf',
    ]);
    expect(await names(adminToken, { kind: 'operation' })).toEqual([
      'loose-operation.pdf',
      'company-operation.pdf',
      'lab-operation.pdf',
      'ward-operation.pdf',
      'pharmacy-operation.pdf',
    ]);
    const wardFile = await download(memberToken, ids['ward-operation']!);
    expect(wardFile.statusCode).toBe(200);
    expect(wardFile.body).toBe('%PDF ward-operation');
    const labFile = await post(memberToken, '/api/dataCenter/downloadFile', { id: ids['lab-operation'] });
    expect(labFile.body.msgContent).toBe('The file does not exist');
    const companyFile = await post(memberToken, '/api/dataCenter/downloadFile', {
      id: ids['company-operation'],
    });
    expect(companyFile.body.msgContent).toBe('The file does not exist');

    // An equipment report needs equipment:view, as a sensor report needs device:view.
    const role = await buildRole(db, companyId, pharmacyId, ['report:view', 'equipment:view']);
    const keeper = await buildUser(db, { name: 'Keeper' });
    await addMember(db, companyId, keeper.id, false, { departmentId: pharmacyId, roleId: role.id });
    const keeperToken = await login(ctx.app, keeper.account);
    for (const [name, kind, by] of [
      ['keeper-equipment-report', 'equipmentReport', keeper.id],
      ['keeper-sensor-report', 'sensorReport', keeper.id],
      ['member-equipment-report', 'equipmentReport', memberId],
    ] as const) {
      await recordReportFile(db, ctx.app.files, {
        companyId,
        kind,
        fileName: `${name}.pdf`,
        format: 'pdf',
        bytes: Buffer.from(`%PDF ${name}`),
        generatedBy: by,
        generatedByName: 'Someone',
        generatedAt: new Date(at + HOUR),
      });
    }
    expect(await names(keeperToken, { keyword: 'report' })).toEqual(['keeper-equipment-report.pdf']);
    expect(await names(memberToken, { keyword: '-report' })).toEqual(['member-sensor-report.csv']);
  });
});
