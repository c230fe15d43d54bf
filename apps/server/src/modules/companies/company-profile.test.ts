import type { UserCompany } from '@coldchain/contract';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';

/** Spec section 3 "Company: id, name, industry, location, address", and what leaving needs. */
describe('company information and who may leave', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  async function founder(body: Record<string, unknown>) {
    const user = await buildUser(ctx.app.db);
    const token = await login(ctx.app, user.account);
    const created = await call<{ id: string }>(ctx.app, '/api/user/createCompany', body, { token });
    expect(created.body.msgCode, created.body.msgContent).toBe(200);
    return { user, token, companyId: Number(created.body.data.id) };
  }
  const companiesOf = async (token: string) =>
    (await call<UserCompany[]>(ctx.app, '/api/index/getUserCompanys', {}, { token })).body.data;
  const lastAudit = async (companyId: number) =>
    (
      await ctx.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.companyId, companyId))
        .orderBy(desc(auditLog.seq))
        .limit(1)
    )[0]!;

  it('creates a company with its region and detailed address and lists them', async () => {
    const f = await founder({
      name: 'Klang Vaccines',
      industry: 'healthcare',
      region: 'Selangor, Klang',
      address: 'Jalan Meru 12',
    });
    expect(await companiesOf(f.token)).toEqual([
      expect.objectContaining({
        name: 'Klang Vaccines',
        industry: 'healthcare',
        region: 'Selangor, Klang',
        address: 'Jalan Meru 12',
        legalPerson: true,
        onlyAdmin: true,
      }),
    ]);
    expect((await lastAudit(f.companyId)).after).toMatchObject({ region: 'Selangor, Klang' });
  });

  it('edits industry and location with the name; a rename alone keeps the rest', async () => {
    const f = await founder({ name: 'Old Name', region: 'Penang', address: 'Pier 1' });
    const edit = await call(
      ctx.app,
      '/api/user/changeOrganizeName',
      { name: 'New Name', industry: 'pharma', region: 'Johor', address: 'Jalan Tebrau 3' },
      { token: f.token },
    );
    expect(edit.body.msgCode).toBe(200);
    const entry = await lastAudit(f.companyId);
    expect(entry).toMatchObject({ action: 'company.edit' });
    expect(entry.before).toEqual({ name: 'Old Name', industry: '', region: 'Penang', address: 'Pier 1' });

    await call(ctx.app, '/api/user/changeOrganizeName', { name: 'Newer Name' }, { token: f.token });
    expect(await companiesOf(f.token)).toEqual([
      expect.objectContaining({
        name: 'Newer Name',
        industry: 'pharma',
        region: 'Johor',
        address: 'Jalan Tebrau 3',
      }),
    ]);
    expect(await lastAudit(f.companyId)).toMatchObject({ action: 'company.rename' });

    const tooLong = await call(
      ctx.app,
      '/api/user/changeOrganizeName',
      { name: 'Newer Name', region: 'x'.repeat(256) },
      { token: f.token },
    );
    expect(tooLong.body).toEqual({
      msgCode: 500,
      msgContent: 'Region must be at most 255 characters',
      data: null,
    });
  });

  it('tells the console who may leave: not the legal person, not the only administrator', async () => {
    const f = await founder({ name: 'Two Admins' });
    const second = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, second.id, true);
    const plain = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, f.companyId, plain.id);
    expect(await companiesOf(f.token)).toEqual([
      expect.objectContaining({ legalPerson: true, onlyAdmin: false }),
    ]);
    expect(await companiesOf(await login(ctx.app, second.account))).toEqual([
      expect.objectContaining({ isAdmin: true, legalPerson: false, onlyAdmin: false }),
    ]);
    const plainToken = await login(ctx.app, plain.account);
    expect(await companiesOf(plainToken)).toEqual([
      expect.objectContaining({ isAdmin: false, legalPerson: false, onlyAdmin: false }),
    ]);
    const left = await call(
      ctx.app,
      '/api/user/dropOutOrganize',
      { id: String(f.companyId) },
      { token: plainToken },
    );
    expect(left.body.msgContent).toBe('You have left the company');
    expect(await companiesOf(plainToken)).toEqual([]);
    const [gone] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, f.companyId), eq(auditLog.action, 'member.leave')));
    expect(gone).toMatchObject({ userId: plain.id });
  });
});
