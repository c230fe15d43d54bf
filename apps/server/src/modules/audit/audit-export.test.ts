import type { LoginLogEntry, OperationLogEntry, Page } from '@coldchain/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDevice, buildRole, buildUser, login } from '../../test/factories';
import { departments } from '../org/org.table';
import { builtInLocator, isLocalAddress, locateIp, setIpLocator } from './ip-location';

const HOUR = 3_600_000;

/** POSTs like the console and hands back the raw answer: a file, or an envelope on refusal. */
async function download(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: { token: string; language?: 'cn' | 'en' },
) {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      accessToken: options.token,
      ...(options.language ? { language: options.language } : {}),
    },
    payload: JSON.stringify(body),
  });
  return response;
}

async function xlsxRows(bytes: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? '')));
  });
  return rows;
}

/** A minimal RFC 4180 reader: enough to read back what the export wrote. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r') continue;
    else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  return rows;
}

async function rootDepartment(app: FastifyInstance, companyId: number) {
  const [root] = await app.db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)));
  return root!.id;
}

describe('login log exports', () => {
  const ctx = useTestApp();

  it('exports the company’s logins as xlsx with headers and values in the caller’s language', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db, { name: 'Lin Wei' });
    await addMember(ctx.app.db, company.id, member.id);
    await call(ctx.app, '/api/doLogin', {
      account: member.account,
      password: 'Wrong1234',
      type: 1,
      platform: 1,
    });
    await login(ctx.app, member.account);
    const token = await login(ctx.app, company.admin.account);
    const now = Date.now();

    const response = await download(
      ctx.app,
      '/api/userLoginLog/auditExportUserLog',
      { startTime: now - HOUR, endTime: now + HOUR, format: 'xlsx', timeZone: 'Asia/Shanghai' },
      { token, language: 'cn' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const disposition = String(response.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[^"]+\.xlsx"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toMatch(/^登录日志-\d{8}-\d{8}\.xlsx$/);

    const rows = await xlsxRows(response.rawPayload);
    expect(rows[0]).toEqual(['用户', '账号', '平台', '登录方式', '时间', '状态', '原因', 'IP', '登录地点']);
    // Newest first: the admin's login, then the member's success and failure. The streaming
    // writer leaves an empty text out of the sheet, so an empty reason reads back as no cell.
    expect(rows.slice(1).map((r) => [r[1], r[5], r[6] ?? ''])).toEqual([
      [company.admin.account, '成功', ''],
      [member.account, '成功', ''],
      [member.account, '失败', '密码错误'],
    ]);
    const failure = rows[3]!;
    expect(failure[0]).toBe('Lin Wei');
    expect(failure.slice(2, 4)).toEqual(['网页端', '密码登录']);
    expect(failure[4]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(failure[7]).toBe('127.0.0.1');
    expect(failure[8]).toBe('局域网');
  });

  it('exports one’s own logins as csv, and the period and filters bound the rows', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db, { name: 'Ana, "Q" Smith' });
    await addMember(ctx.app.db, company.id, member.id);
    await call(ctx.app, '/api/doLogin', {
      account: member.account,
      password: 'Wrong1234',
      type: 1,
      platform: 1,
    });
    const token = await login(ctx.app, member.account);
    const now = Date.now();
    const body = { startTime: now - HOUR, endTime: now + HOUR, format: 'csv' };

    const response = await download(ctx.app, '/api/userLoginLog/exportUserLog', body, { token });
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(response.headers['content-disposition'])).toMatch(/filename="Login log-\d{8}-\d{8}\.csv"/);
    const text = response.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = csvRows(text.slice(1));
    expect(rows[0]).toEqual([
      'User',
      'Account',
      'Platform',
      'Method',
      'Time',
      'Status',
      'Reason',
      'IP',
      'Location',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[5], r[6], r[8]])).toEqual([
      ['Ana, "Q" Smith', 'Success', '', 'Local network'],
      ['Ana, "Q" Smith', 'Failure', 'Wrong password', 'Local network'],
    ]);
    // Only one's own logins: the admin's never appear, even for an admin-free member.
    expect(text).not.toContain(company.admin.account);

    const failuresOnly = await download(
      ctx.app,
      '/api/userLoginLog/exportUserLog',
      { ...body, status: 0 },
      { token },
    );
    expect(csvRows(failuresOnly.rawPayload.toString('utf8').slice(1))).toHaveLength(2);
    const before = await download(
      ctx.app,
      '/api/userLoginLog/exportUserLog',
      { ...body, startTime: now - 3 * HOUR, endTime: now - 2 * HOUR },
      { token },
    );
    expect(csvRows(before.rawPayload.toString('utf8').slice(1))).toHaveLength(1);
  });

  it('asks for a time period and a file format, in the caller’s language', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const now = Date.now();
    const cases: [unknown, 'en' | 'cn', string][] = [
      [{ format: 'xlsx' }, 'en', 'Select at least one device, time period or record'],
      [{ format: 'xlsx', startTime: now }, 'cn', '请至少选择一个设备、时间段或记录'],
      [{ startTime: now - HOUR, endTime: now }, 'en', 'Select a file format: xlsx, csv or pdf'],
      [
        { startTime: now - HOUR, endTime: now, format: 'docx' },
        'en',
        'Select a file format: xlsx, csv or pdf',
      ],
      [{ startTime: now, endTime: now - HOUR, format: 'csv' }, 'en', 'End time must be after the start time'],
      [
        { startTime: now - 400 * 24 * HOUR, endTime: now, format: 'csv' },
        'en',
        'The export period may cover at most 366 days',
      ],
    ];
    for (const url of ['/api/userLoginLog/auditExportUserLog', '/api/audit/exportOperationLog']) {
      for (const [body, language, message] of cases) {
        const { body: answer } = await call(ctx.app, url, body, { token, language });
        expect(answer, `${url} ${JSON.stringify(body)}`).toMatchObject({ msgCode: 500, msgContent: message });
      }
    }
  });

  it('needs audit:export for the company-wide files, but not for one’s own', async () => {
    const company = await buildCompany(ctx.app.db);
    const viewer = await buildUser(ctx.app.db);
    const root = await rootDepartment(ctx.app, company.id);
    const role = await buildRole(ctx.app.db, company.id, root, ['audit:view']);
    await addMember(ctx.app.db, company.id, viewer.id, false, { roleId: role.id });
    const token = await login(ctx.app, viewer.account);
    const now = Date.now();
    const body = { startTime: now - HOUR, endTime: now + HOUR, format: 'csv' };
    // The viewer may page the audit view…
    const page = await call<Page<LoginLogEntry>>(
      ctx.app,
      '/api/userLoginLog/auditPageUserLog',
      {},
      { token },
    );
    expect(page.body.msgCode).toBe(200);
    // …but not take the files away.
    for (const url of ['/api/userLoginLog/auditExportUserLog', '/api/audit/exportOperationLog']) {
      const denied = await call(ctx.app, url, body, { token });
      expect(denied.body.msgContent, url).toBe('No permission for this service or operation');
    }
    const own = await download(ctx.app, '/api/userLoginLog/exportUserLog', body, { token });
    expect(own.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('filters the login pages by status and by the user’s name, and names the place', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db, { name: 'Zhou Min' });
    await addMember(ctx.app.db, company.id, member.id);
    await call(ctx.app, '/api/doLogin', {
      account: member.account,
      password: 'Wrong1234',
      type: 1,
      platform: 1,
    });
    await login(ctx.app, member.account);
    const token = await login(ctx.app, company.admin.account);
    const failures = await call<Page<LoginLogEntry>>(
      ctx.app,
      '/api/userLoginLog/auditPageUserLog',
      { status: 0 },
      { token },
    );
    expect(failures.body.data.list.map((e) => [e.account, e.status])).toEqual([[member.account, 0]]);
    const byName = await call<Page<LoginLogEntry>>(
      ctx.app,
      '/api/userLoginLog/auditPageUserLog',
      { account: 'zhou' },
      { token, language: 'cn' },
    );
    expect(byName.body.data.total).toBe(2);
    expect(byName.body.data.list[0]!.location).toBe('局域网');
  });
});

describe('operation log export', () => {
  const ctx = useTestApp();

  it('writes who, what, when, old and new values and IP, with translated action names', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    await call(ctx.app, '/api/device/setRemark', { id: device.id, remark: '=SUM(A1)' }, { token });
    const other = await buildCompany(ctx.app.db);
    await buildDevice(ctx.app.db, other.id);
    const now = Date.now();
    const body = { startTime: now - HOUR, endTime: now + HOUR };

    const xlsx = await download(
      ctx.app,
      '/api/audit/exportOperationLog',
      { ...body, format: 'xlsx' },
      { token },
    );
    const rows = await xlsxRows(xlsx.rawPayload);
    expect(rows[0]).toEqual([
      'No.',
      'Time',
      'Operator',
      'Action',
      'Target',
      'Old value',
      'New value',
      'Reason',
      'IP',
    ]);
    // Only this company's trail, newest first.
    expect(rows.slice(1).map((r) => [r[0], r[3]])).toEqual([
      ['2', 'Set device remark'],
      ['1', 'Add device'],
    ]);
    expect(rows[1]!.slice(4, 7)).toEqual([`Device ${device.id}`, '{"remark":""}', '{"remark":"=SUM(A1)"}']);
    expect(rows[1]![8]).toBe('127.0.0.1');

    const csv = await download(
      ctx.app,
      '/api/audit/exportOperationLog',
      { ...body, format: 'csv', action: 'device.setRemark' },
      { token, language: 'cn' },
    );
    const lines = csvRows(csv.rawPayload.toString('utf8').slice(1));
    expect(lines[0]).toEqual([
      '序号',
      '时间',
      '操作人',
      '操作',
      '操作对象',
      '修改前',
      '修改后',
      '原因',
      'IP',
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[1]![3]).toBe('设置设备备注');
    // A cell a spreadsheet would run as a formula is kept as text.
    expect(lines[1]![6]).toBe('{"remark":"=SUM(A1)"}');
    expect(decodeURIComponent(String(csv.headers['content-disposition']).split("UTF-8''")[1]!)).toMatch(
      /^操作日志-\d{8}-\d{8}\.csv$/,
    );
    // Taking the trail away is on the trail: who, which period, which filters, how many rows.
    const trail = await call<Page<OperationLogEntry>>(
      ctx.app,
      '/api/audit/pageOperationLog',
      { action: 'audit.exportOperationLog' },
      { token },
    );
    expect(trail.body.data.list.map((e) => e.after)).toEqual([
      {
        startTime: body.startTime,
        endTime: body.endTime,
        format: 'csv',
        filters: { action: 'device.setRemark' },
        rows: 1,
      },
      { startTime: body.startTime, endTime: body.endTime, format: 'xlsx', filters: {}, rows: 2 },
    ]);
  });

  it('refuses a period with more rows than one file may hold, saying how many', async () => {
    const { AUDIT_EXPORT_MAX_ROWS } = await import('@coldchain/contract');
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    // Fill the trail past the cap in one statement (the trigger only refuses UPDATE and DELETE);
    // the hashes do not matter for counting.
    await ctx.app.db.execute(sql`
      insert into audit_log (company_id, seq, action, target_type, target_id, created_at, prev_hash, hash)
      select ${company.id}, n, 'device.setRemark', 'device', '1', now(), '', ''
      from generate_series(1, ${AUDIT_EXPORT_MAX_ROWS + 1}) as n`);
    const now = Date.now();
    const { body } = await call(
      ctx.app,
      '/api/audit/exportOperationLog',
      { startTime: now - HOUR, endTime: now + HOUR, format: 'csv' },
      { token },
    );
    expect(body).toMatchObject({
      msgCode: 500,
      msgContent: `Too many records to export (${AUDIT_EXPORT_MAX_ROWS + 1}, at most ${AUDIT_EXPORT_MAX_ROWS}); choose a shorter period or narrow the filters`,
    });
  }, 60_000);
});

describe('login location', () => {
  it('names private and loopback addresses the local network and anything else unknown', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.20',
      '::1',
      '::ffff:192.168.0.5',
      'fd00::1',
    ])
      expect(isLocalAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '172.32.0.1', '203.0.113.5', '2001:db8::1', 'not-an-ip'])
      expect(isLocalAddress(ip), ip).toBe(false);
    expect(locateIp('203.0.113.5')).toBe('unknown');
    expect(locateIp('')).toBe('unknown');
  });

  it('lets a deployment replace the lookup, and a failing lookup never breaks a login', () => {
    try {
      setIpLocator((ip) => (ip.startsWith('203.') ? 'Kuala Lumpur' : ''));
      expect(locateIp('203.0.113.5')).toBe('Kuala Lumpur');
      expect(locateIp('8.8.8.8')).toBe('unknown');
      setIpLocator(() => {
        throw new Error('database missing');
      });
      expect(locateIp('8.8.8.8')).toBe('unknown');
    } finally {
      setIpLocator(builtInLocator);
    }
  });
});
