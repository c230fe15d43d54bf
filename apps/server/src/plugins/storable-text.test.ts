import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../test/build-app';
import { buildCompany, buildDevice, login } from '../test/factories';
import { unstorableTextPath } from './storable-text';

/*
 * Found by the API fuzz (issue 13): a NUL character or a lone UTF-16 surrogate in any text field
 * reached PostgreSQL, which cannot store either, and the call answered HTTP 500 (company name,
 * company address in the audit entry, search keywords, audit filters). They are now refused
 * before the schema, naming the field.
 */
describe('text PostgreSQL cannot store', () => {
  const ctx = useTestApp();

  async function admin() {
    const company = await buildCompany(ctx.app.db);
    await buildDevice(ctx.app.db, company.id);
    return { token: await login(ctx.app, company.admin.account), companyId: company.id };
  }

  it('is refused naming the field, in the caller’s language, where it once failed with HTTP 500', async () => {
    const who = await admin();
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/user/changeOrganizeName', { name: 'a\u0000b' }, 'Name'],
      ['/api/user/createCompany', { name: 'Fuzz Co', address: '\ud800' }, 'Detailed address'],
      ['/api/personnel/pageUsers', { pageNum: 1, pageSize: 1, keyword: 'a\u0000b' }, 'Keyword'],
      ['/api/audit/pageOperationLog', { target: '\u0000' }, 'Target'],
    ];
    for (const [url, body, field] of cases) {
      const { status, body: answer } = await call(ctx.app, url, body, { ...who, language: 'en' });
      expect({ url, status, msgCode: answer.msgCode }).toEqual({ url, status: 200, msgCode: 500 });
      expect(answer.msgContent).toBe(
        `${field} contains a character that cannot be saved (a NUL character or a broken Unicode character)`,
      );
    }
    const { body: chinese } = await call(
      ctx.app,
      '/api/user/changeOrganizeName',
      { name: '\udc00x' },
      {
        ...who,
        language: 'cn',
      },
    );
    expect(chinese.msgContent).toBe('名称包含无法保存的字符（空字符或不完整的 Unicode 字符）');
  });

  it('still asks a caller without a login to log in first', async () => {
    const { body } = await call(ctx.app, '/api/user/changeOrganizeName', { name: 'a\u0000b' });
    expect(body.msgCode).toBe(311);
  });

  it('lets whole characters through, emoji and Chinese included', async () => {
    const who = await admin();
    const { body } = await call(ctx.app, '/api/user/changeOrganizeName', { name: '冷链 👩‍👩‍👧' }, who);
    expect(body.msgCode).toBe(200);
    expect(unstorableTextPath({ a: [{ b: 'ok' }, { c: 'x\ud83d' }] })).toBe('a.1.c');
    expect(unstorableTextPath({ 'k\u0000': 1 })).toBe('k\u0000');
    expect(unstorableTextPath('\ud83d\udc69')).toBeUndefined();
  });
});
