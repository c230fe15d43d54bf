import type { UserCompany, UserInfo, UserPowers } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { DEMO_OPERATOR_ACCOUNT, seedDemoOperator } from './demo-operator';
import { DEMO_PASSWORD } from './demo-seed';

describe('demo operator', () => {
  const ctx = useTestApp();

  it('is a platform operator in no company, made once', async () => {
    await seedDemoOperator(ctx.app.db);
    await seedDemoOperator(ctx.app.db);
    const token = await login(ctx.app, DEMO_OPERATOR_ACCOUNT, DEMO_PASSWORD);
    const info = await call<UserInfo>(ctx.app, '/api/user/userInfo', {}, { token });
    expect(info.body.data).toMatchObject({ isOperator: true, lastCompanyId: null });
    const companies = await call<UserCompany[]>(ctx.app, '/api/index/getUserCompanys', {}, { token });
    expect(companies.body.data).toEqual([]);
    const powers = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token });
    expect(powers.body.data.menus.map((m) => m.name)).toContain('operator');
  });
});
