import type { CreditLedgerRowView, Page } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
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
import { auditLog } from '../audit/audit.table';
import { grantCredit, refundCredit, reserveCredit } from '../delivery/credits.service';
import { creditExportLimits } from './credits-export';
import { buildNotification } from './credits-test-support';

/*
 * Balance, ledger and its export through the real calls (API.md "Billing"). The ledger is written
 * by modules/delivery's own credit functions, as it is when alarms are sent.
 */
describe('message credit: balance and ledger', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  let companyId: number;
  let adminToken: string;
  let deviceName: string;
  let alarmOfSms: number;
  let departmentToken: string;
  let noBillingToken: string;

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    companyId = company.id;
    const cold = await buildDepartment(db, company.id, { name: 'Cold store' });
    const device = await buildDevice(db, company.id, { name: 'Vaccine fridge' });
    const coldDevice = await buildDevice(db, company.id, { name: 'Cold room', departmentId: cold.id });
    deviceName = 'Vaccine fridge';
    await grantCredit(db, company.id, 100, 'starter credit');
    const sms = await buildNotification(db, company.id, Number(device.id), company.admin.id, 'sms');
    const email = await buildNotification(db, company.id, Number(device.id), company.admin.id, 'email');
    const callAlarm = await buildNotification(
      db,
      company.id,
      Number(coldDevice.id),
      company.admin.id,
      'call',
      'offline',
    );
    alarmOfSms = sms.alarmId;
    // A 71-character SMS costs 2 credits (spec section 9); the call is refunded (not delivered).
    expect(await reserveCredit(db, company.id, sms.notificationId, 'sms', 2)).toBe(true);
    expect(await reserveCredit(db, company.id, email.notificationId, 'email', 1)).toBe(true);
    expect(await reserveCredit(db, company.id, callAlarm.notificationId, 'call', 1)).toBe(true);
    await refundCredit(db, company.id, callAlarm.notificationId);
    adminToken = await login(ctx.app, company.admin.account);

    // A member of the cold store with billing:view, and a member of the root without it.
    const viewer = await buildRole(db, company.id, cold.id, ['billing:view']);
    const member = await buildUser(db);
    await addMember(db, company.id, member.id, false, { departmentId: cold.id, roleId: viewer.id });
    departmentToken = await login(ctx.app, member.account);
    const plain = await buildUser(db);
    await addMember(db, company.id, plain.id);
    noBillingToken = await login(ctx.app, plain.account);

    // Another company's ledger, which must never show.
    const other = await buildCompany(db);
    await grantCredit(db, other.id, 500, 'OTHER-COMPANY grant');
  });

  const ledger = (body: object, token = adminToken) =>
    call<Page<CreditLedgerRowView>>(ctx.app, '/api/credit/pageLedger', body, { token, language: 'en' });

  it('answers the balance as { balance, currency }', async () => {
    const { body } = await call(ctx.app, '/api/credit/balance', {}, { token: adminToken });
    // 100 granted - 2 (sms) - 1 (email) - 1 (call) + 1 (call refunded) = 97.
    expect(body).toMatchObject({ msgCode: 200, data: { balance: 97, currency: 'credit' } });
  });

  it('lists every change newest first, naming the alarm, device and channel each message paid for', async () => {
    const { body } = await ledger({ pageNum: 1, pageSize: 20 });
    expect(body.msgCode).toBe(200);
    const page = body.data;
    expect(page.total).toBe(5);
    expect(page.list.map((r) => [r.kind, r.amount, r.channel])).toEqual([
      ['refund', 1, 'call'],
      ['debit', -1, 'call'],
      ['debit', -1, 'email'],
      ['debit', -2, 'sms'],
      ['grant', 100, null],
    ]);
    expect(page.list.reduce((sum, r) => sum + r.amount, 0)).toBe(97);
    const sms = page.list[3]!;
    expect(sms.alarm).toMatchObject({ id: String(alarmOfSms), alarmType: 'overLimit', deviceName });
    expect(page.list[0]!.alarm).toMatchObject({ alarmType: 'offline', deviceName: 'Cold room' });
    expect(page.list[4]).toMatchObject({ alarm: null, order: null, reason: 'starter credit' });
    expect(JSON.stringify(page)).not.toContain('OTHER-COMPANY');
  });

  it('filters by kind, channel and period, and pages', async () => {
    expect((await ledger({ kind: 'debit' })).body.data.total).toBe(3);
    const calls = (await ledger({ channel: 'call' })).body.data;
    expect(calls.list.map((r) => r.kind)).toEqual(['refund', 'debit']);
    expect((await ledger({ kind: 'grant', channel: 'sms' })).body.data.total).toBe(0);
    const future = Date.now() + 3_600_000;
    expect((await ledger({ startTime: future })).body.data.total).toBe(0);
    expect((await ledger({ endTime: future })).body.data.total).toBe(5);
    const second = (await ledger({ pageNum: 2, pageSize: 2 })).body.data;
    expect(second.list.map((r) => r.kind)).toEqual(['debit', 'debit']);
  });

  it('names the field of a bad filter in the caller language, never a server error', async () => {
    const bad = await ledger({ kind: 'gift' });
    expect(bad.status).toBe(200);
    expect(bad.body.msgCode).toBe(500);
    expect(bad.body.msgContent).toContain('Entry type');
    const period = await ledger({ startTime: 2_000, endTime: 1_000 });
    expect(period.body.msgCode).toBe(500);
    const cn = await call(
      ctx.app,
      '/api/credit/pageLedger',
      { channel: 'fax' },
      { token: adminToken, language: 'cn' },
    );
    expect(cn.body.msgContent).toContain('消息渠道');
  });

  it('refuses a member without billing:view', async () => {
    for (const url of ['/api/credit/balance', '/api/credit/pageLedger', '/api/credit/exportLedger']) {
      const { body } = await call(ctx.app, url, { format: 'csv' }, { token: noBillingToken, language: 'en' });
      expect(body, url).toMatchObject({ msgCode: 500, msgContent: translate('NO_PERMISSION', 'en') });
    }
  });

  it("shows a department member the grants and only their own devices' messages", async () => {
    const page = (await ledger({}, departmentToken)).body.data;
    expect(page.list.map((r) => [r.kind, r.alarm?.deviceName ?? null])).toEqual([
      ['refund', 'Cold room'],
      ['debit', 'Cold room'],
      ['grant', null],
    ]);
    expect(JSON.stringify(page)).not.toContain(deviceName);
    // The balance is the company's one balance.
    const { body } = await call(ctx.app, '/api/credit/balance', {}, { token: departmentToken });
    expect(body.data).toEqual({ balance: 97, currency: 'credit' });
  });

  it('exports the filtered ledger through the one export writer, on the audit trail', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/credit/exportLedger',
      headers: { 'content-type': 'application/json', accessToken: adminToken, language: 'cn' },
      payload: JSON.stringify({ format: 'csv', kind: 'debit', timeZone: 'Asia/Shanghai' }),
    });
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="credit-ledger-/);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('时间,流水类型,条数,渠道,报警编号,报警类型,设备,序列号,说明');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toContain(`,-2,短信,${alarmOfSms},超限报警,${deviceName},`);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, 'credit.exportLedger')));
    expect(entry?.after).toMatchObject({ kind: 'debit', format: 'csv', rows: 3 });
  });

  it('writes xlsx and a fingerprinted PDF through the same writer', async () => {
    for (const [format, type, magic] of [
      ['xlsx', 'spreadsheetml', 'PK'],
      ['pdf', 'application/pdf', '%PDF'],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/credit/exportLedger',
        headers: { 'content-type': 'application/json', accessToken: adminToken },
        payload: JSON.stringify({ format }),
      });
      expect(response.headers['content-type'], format).toContain(type);
      expect(response.rawPayload.subarray(0, magic.length).toString()).toBe(magic);
      if (format === 'pdf') expect(response.headers['x-report-sha256']).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('reports its progress under the console id, like every export', async () => {
    const progressId = 'ledger-progress-0001';
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/credit/exportLedger',
      headers: { 'content-type': 'application/json', accessToken: adminToken },
      payload: JSON.stringify({ format: 'csv', progressId }),
    });
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    const { body } = await call(ctx.app, '/api/export/progress', { progressId }, { token: adminToken });
    expect(body.data).toMatchObject({ phase: 'done', done: 5, total: 5 });
  });

  it('refuses an export over the row cap with a clear message', async () => {
    const saved = creditExportLimits.maxRows;
    creditExportLimits.maxRows = 2;
    try {
      const { body } = await call(
        ctx.app,
        '/api/credit/exportLedger',
        { format: 'xlsx' },
        {
          token: adminToken,
          language: 'en',
        },
      );
      expect(body.msgCode).toBe(500);
      expect(body.msgContent).toContain('5 rows, more than the 2');
    } finally {
      creditExportLimits.maxRows = saved;
    }
  });
});
