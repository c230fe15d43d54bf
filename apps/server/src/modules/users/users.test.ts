import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { createNotice } from '../notices/notices.service';

describe('user info and the unread badge', () => {
  const ctx = useTestApp();

  it('returns the user-info fields of spec section 3 and counts unread notices of the current company', async () => {
    const company = await buildCompany(ctx.app.db);
    const other = await buildCompany(ctx.app.db);
    const text = { cn: '校准到期', en: 'Calibration due' };
    for (let i = 0; i < 3; i++) {
      await createNotice(ctx.app.db, {
        companyId: company.id,
        userId: company.admin.id,
        kind: 'reminder',
        title: text,
        content: text,
      });
    }
    await createNotice(ctx.app.db, {
      companyId: other.id,
      userId: company.admin.id,
      kind: 'reminder',
      title: text,
      content: text,
    });
    const token = await login(ctx.app, company.admin.account);
    const info = await call<Record<string, unknown>>(ctx.app, '/api/user/userInfo', {}, { token });
    expect(info.body.data).toMatchObject({
      id: String(company.admin.id),
      relName: 'Company Admin',
      headImg: '',
      signCheck: false,
      exportExcel: true,
      dataViewPath: '',
      pcAlarmVoice: true,
      lastCompanyId: String(company.id),
      legalPerson: true,
      unreadNoticeCount: 3,
    });
    const badge = await call<{ count: number }>(
      ctx.app,
      '/api/user/newUserNotice',
      {},
      { token, companyId: company.id },
    );
    expect(badge.body.data.count).toBe(3);
  });
});
