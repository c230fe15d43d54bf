import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDevice, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';

const PERIOD = { startTime: Date.UTC(2026, 0, 1), endTime: Date.UTC(2026, 0, 2), format: 'csv' };

interface Caller {
  token: string;
  companyId: number;
}

/** An export answers with the raw file, or with an envelope when refused. */
async function exportCall(app: FastifyInstance, as: Caller, url: string, body: object, language = 'en') {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      platform: '1',
      language,
      accessToken: as.token,
      companyId: String(as.companyId),
    },
    payload: JSON.stringify(body),
  });
  const envelope = String(res.headers['content-type'] ?? '').includes('application/json')
    ? (res.json() as { msgCode: number; msgContent: string })
    : null;
  return { status: res.statusCode, envelope, text: res.body };
}

/** Every export call, with the body it needs besides the period and format. */
const EXPORTS: Array<{ url: string; action: string | null; body: (deviceId: string) => object }> = [
  { url: '/api/device/exportData', action: 'device.exportData', body: (id) => ({ deviceIds: [id] }) },
  { url: '/api/alarm/exportAlarms', action: 'alarm.export', body: () => ({}) },
  { url: '/api/audit/exportOperationLog', action: 'audit.exportOperationLog', body: () => ({}) },
  { url: '/api/userLoginLog/auditExportUserLog', action: 'audit.exportLoginLog', body: () => ({}) },
  // One's own login history is not company data and is not audited, but it is an export.
  { url: '/api/userLoginLog/exportUserLog', action: null, body: () => ({}) },
];

describe('signed exports', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  async function company() {
    const c = await buildCompany(ctx.app.db);
    const admin: Caller = { token: await login(ctx.app, c.admin.account), companyId: c.id };
    const device = await buildDevice(ctx.app.db, c.id);
    const switchSignature = (enabled: boolean) =>
      call(ctx.app, '/api/company/setAuditSignature', { enabled }, admin);
    return { ...c, admin, device, switchSignature };
  }

  async function actions(companyId: number, action: string) {
    return ctx.app.db
      .select({ after: auditLog.after, userId: auditLog.userId })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, action)));
  }

  it.each(EXPORTS)('$url asks for the signature only while audit signature is on', async (e) => {
    const c = await company();
    const body = { ...PERIOD, ...e.body(c.device.id) };
    const run = (extra: object = {}, language = 'en') =>
      exportCall(ctx.app, c.admin, e.url, { ...body, ...extra }, language);

    // Off: no password is asked for, and one sent is ignored.
    expect((await run()).status).toBe(200);
    expect((await run({ signPassword: 'whatever' })).envelope).toBeNull();

    await c.switchSignature(true);
    // On, without a signature password: the feature is closed (spec section 8).
    expect((await run({ signPassword: 'abc123' })).envelope?.msgContent).toBe(
      'Signature password not set, so the feature cannot be used',
    );
    await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'abc123', confirmPassword: 'abc123' },
      c.admin,
    );
    expect((await run()).envelope?.msgContent).toBe('Enter your signature password to continue');
    expect((await run({ signPassword: 'wrong1' }, 'cn')).envelope?.msgContent).toBe('签名密码错误');
    const signed = await run({ signPassword: 'abc123' });
    expect(signed.status).toBe(200);
    expect(signed.envelope).toBeNull();

    if (e.action) {
      const entries = await actions(c.id, e.action);
      // One entry per file taken: the two unsigned ones and the signed one.
      expect(entries).toHaveLength(3);
      const last = entries.at(-1)!.after as { signature?: { meaning: string; signedBy: string } };
      expect(last.signature).toMatchObject({ meaning: 'dataExport', signedBy: 'Company Admin' });
    }
    const trail = await ctx.app.db.select().from(auditLog).where(eq(auditLog.companyId, c.id));
    expect(JSON.stringify(trail)).not.toContain('abc123');
    expect(JSON.stringify(trail)).not.toContain('wrong1');
  });

  it.each(EXPORTS)('$url is refused to a member the administrator forbade exporting', async (e) => {
    const c = await company();
    const member = await buildUser(ctx.app.db, { name: 'Auditor' });
    await addMember(ctx.app.db, c.id, member.id, true);
    const as: Caller = { token: await login(ctx.app, member.account), companyId: c.id };
    const body = { ...PERIOD, ...e.body(c.device.id) };
    expect((await exportCall(ctx.app, as, e.url, body)).status).toBe(200);

    const set = await call(
      ctx.app,
      '/api/personnel/setExportExcel',
      { userId: String(member.id), enabled: false },
      c.admin,
    );
    expect(set.body).toMatchObject({ msgCode: 200, msgContent: 'Export permission saved' });
    const refused = await exportCall(ctx.app, as, e.url, body, 'cn');
    expect(refused.envelope).toMatchObject({
      msgCode: 500,
      msgContent: '暂无导出权限，请联系企业管理员开通',
    });
    // The administrator's own flag is untouched.
    expect((await exportCall(ctx.app, c.admin, e.url, body)).status).toBe(200);
  });
});

describe('the audit signature switch and the export flag', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  it('is the company administrator’s, audited, and reaches every member’s userInfo', async () => {
    const c = await buildCompany(ctx.app.db);
    const admin = { token: await login(ctx.app, c.admin.account), companyId: c.id };
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, c.id, member.id);
    const asMember = { token: await login(ctx.app, member.account), companyId: c.id };
    const info = async () =>
      (await call<{ signCheck: boolean; exportExcel: boolean }>(ctx.app, '/api/user/userInfo', {}, asMember))
        .body.data;
    expect(await info()).toMatchObject({ signCheck: false, exportExcel: true });

    const refused = await call(ctx.app, '/api/company/setAuditSignature', { enabled: true }, asMember);
    expect(refused.body.msgContent).toBe('No permission for this service or operation');
    const refusedFlag = await call(
      ctx.app,
      '/api/personnel/setExportExcel',
      { userId: String(c.admin.id), enabled: false },
      asMember,
    );
    expect(refusedFlag.body.msgContent).toBe('No permission for this service or operation');
    expect(await info()).toMatchObject({ signCheck: false, exportExcel: true });

    const on = await call(ctx.app, '/api/company/setAuditSignature', { enabled: true }, admin);
    expect(on.body.msgContent).toBe(
      'Audit signature is on: resolving alarms and exporting now need the signature password',
    );
    await call(
      ctx.app,
      '/api/personnel/setExportExcel',
      { userId: String(member.id), enabled: false },
      admin,
    );
    expect(await info()).toMatchObject({ signCheck: true, exportExcel: false });
    const read = await call(ctx.app, '/api/company/getAuditSignature', {}, asMember);
    expect(read.body.data).toEqual({ enabled: true });
    // The personnel list shows the administrator each member's flag (the console's switch).
    const people = await call<{ list: Array<{ userId: string; exportExcel: boolean }> }>(
      ctx.app,
      '/api/personnel/pageUsers',
      { pageNum: 1, pageSize: 20 },
      admin,
    );
    expect(people.body.data.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: String(member.id), exportExcel: false }),
        expect.objectContaining({ userId: String(c.admin.id), exportExcel: true }),
      ]),
    );

    const trail = await ctx.app.db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.companyId, c.id));
    expect(trail).toEqual(
      expect.arrayContaining([
        { action: 'company.auditSignature', before: { enabled: false }, after: { enabled: true } },
        { action: 'member.exportExcel', before: { enabled: true }, after: { enabled: false } },
      ]),
    );
  });

  it('names the field of a bad body and keeps other companies’ people out', async () => {
    const c = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    const admin = { token: await login(ctx.app, c.admin.account), companyId: c.id };
    const bad = await call(ctx.app, '/api/company/setAuditSignature', { enabled: 'yes' }, admin);
    expect(bad.body.msgCode).toBe(500);
    expect(bad.body.msgContent).toContain('Enabled');
    const foreign = await call(
      ctx.app,
      '/api/personnel/setExportExcel',
      { userId: String(other.admin.id), enabled: false },
      admin,
    );
    expect(foreign.body.msgContent).toBe('The requested record does not exist');
    const badId = await call(
      ctx.app,
      '/api/personnel/setExportExcel',
      { userId: 'x', enabled: false },
      admin,
    );
    expect(badId.body.msgCode).toBe(500);
    expect(badId.body.msgContent).toContain('User');
  });
});
