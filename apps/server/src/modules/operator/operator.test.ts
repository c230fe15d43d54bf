import type {
  InventoryCsvPreview,
  InventoryRowView,
  OperatorCompanyView,
  OperatorFeedbackView,
  Page,
  UserInfo,
  UserPowers,
} from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { creditBalance } from '../delivery/credits.service';
import { feedback } from '../feedback/feedback.table';
import { users } from '../users/users.table';
import { PLATFORM_CHAIN } from './operators.service';

const OPERATOR_ONLY = translate('OPERATOR_ONLY', 'en');
const NO_PERMISSION = translate('NO_PERMISSION', 'en');

describe('operator console', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 100_000 });
  let operatorToken: string;
  let operatorId: number;
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let adminToken: string;

  const asOperator = <T>(url: string, body: unknown = {}) =>
    call<T>(ctx.app, url, body, { token: operatorToken });

  beforeAll(async () => {
    const operator = await buildUser(ctx.app.db, { name: 'Operator' });
    await ctx.app.db.update(users).set({ isOperator: true }).where(eq(users.id, operator.id));
    operatorId = operator.id;
    operatorToken = await login(ctx.app, operator.account);
    company = await buildCompany(ctx.app.db, { name: 'Acme Cold', services: ['service:logistics'] });
    adminToken = await login(ctx.app, company.admin.account);
  });

  const operatorRoutes = () =>
    [...ctx.app.routePermissions.values()].filter((r) => r.tags.includes('operator'));

  it('refuses every operator-only call to a company administrator, from the route table', async () => {
    const urls = operatorRoutes().map((r) => r.url);
    // The walk is real: every /api/operator/* call is operator-only, and there are several.
    const underOperator = [...ctx.app.routePermissions.values()].filter((r) =>
      r.url.startsWith('/api/operator/'),
    );
    expect(underOperator.map((r) => r.url).filter((u) => !urls.includes(u))).toEqual([]);
    expect(urls).toContain('/api/operator/setServices');
    expect(urls.length).toBeGreaterThanOrEqual(10);
    const before = await ctx.app.db.select().from(auditLog);
    const failures: string[] = [];
    for (const route of operatorRoutes()) {
      for (const body of [{}, { id: String(company.id), pageNum: 1, pageSize: 5 }]) {
        const answer = await call(ctx.app, route.url, body, { token: adminToken });
        if (answer.body.msgContent !== OPERATOR_ONLY)
          failures.push(`${route.url}: ${answer.body.msgContent}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await ctx.app.db.select().from(auditLog)).toHaveLength(before.length);
  });

  it('gives an operator without a company nothing of any company', async () => {
    const info = await asOperator<UserInfo>('/api/user/userInfo');
    expect(info.body.data).toMatchObject({ isOperator: true, lastCompanyId: null });
    const admin = await call<UserInfo>(ctx.app, '/api/user/userInfo', {}, { token: adminToken });
    expect(admin.body.data.isOperator).toBe(false);
    // Every company call with the company's id in the header: "no permission", as for any outsider.
    const failures: string[] = [];
    const companyCalls = [...ctx.app.routePermissions.values()].filter(
      (r) => !r.public && r.method === 'POST' && !r.tags.includes('operator'),
    );
    for (const route of companyCalls) {
      const answer = await call(ctx.app, route.url, {}, { token: operatorToken, companyId: company.id });
      if (answer.body.msgContent !== NO_PERMISSION) failures.push(`${route.url}: ${answer.body.msgContent}`);
    }
    expect(failures).toEqual([]);
    expect(companyCalls.length).toBeGreaterThan(60);
    // Without the header there is no company in scope and so no right: every tagged call refuses.
    const tagged = companyCalls.filter((r) => r.tags.some((t) => t !== 'home:view'));
    for (const route of tagged) {
      const answer = await asOperator(route.url, {});
      // A call whose refusal the spec words itself (top-up) says that instead.
      const refusal = route.refusal ? translate(route.refusal, 'en') : NO_PERMISSION;
      if (answer.body.msgContent !== refusal)
        failures.push(`${route.url} (no header): ${answer.body.msgContent}`);
    }
    expect(failures).toEqual([]);
  });

  it('shows the operator area in the operator’s menus only', async () => {
    const mine = await asOperator<UserPowers>('/api/index/getUserPowers');
    const operatorMenu = mine.body.data.menus.find((m) => m.name === 'operator');
    expect(operatorMenu?.children.map((c) => c.url)).toEqual(
      expect.arrayContaining(['/operator/companies', '/operator/inventory', '/operator/feedback']),
    );
    expect(operatorMenu?.redirect).toBe('/operator/companies');
    const admin = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token: adminToken });
    expect(admin.body.data.menus.some((m) => m.name === 'operator')).toBe(false);
  });

  it('finds companies by name and shows their services, credit and counts', async () => {
    await buildDevice(ctx.app.db, company.id);
    const page = await asOperator<Page<OperatorCompanyView>>('/api/operator/pageCompanies', {
      keyword: 'acme',
    });
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.list[0]).toMatchObject({
      id: String(company.id),
      name: 'Acme Cold',
      disabled: false,
      memberCount: 1,
      deviceCount: 1,
      services: [{ tag: 'service:logistics', expireTime: null, active: true }],
    });
    const none = await asOperator<Page<OperatorCompanyView>>('/api/operator/pageCompanies', {
      keyword: '100%_',
    });
    expect(none.body.data.total).toBe(0);
  });

  it('grants credit into the ledger and the company’s trail', async () => {
    const before = await creditBalance(ctx.app.db, company.id);
    const answer = await asOperator<OperatorCompanyView>('/api/operator/grantCredits', {
      id: String(company.id),
      amount: 250,
      note: 'goodwill',
    });
    expect(answer.body.msgCode).toBe(200);
    expect(answer.body.data.credits).toBe(before + 250);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'operator.grantCredits')));
    expect(entry).toMatchObject({ userId: operatorId, reason: 'goodwill' });
    const bad = await asOperator('/api/operator/grantCredits', {
      id: String(company.id),
      amount: 0,
      note: 'x',
    });
    expect(bad.body.msgContent).toBe('Credits must be a whole number from 1 to 1,000,000');
    const cn = await call(
      ctx.app,
      '/api/operator/grantCredits',
      { id: String(company.id), amount: 0, note: 'x' },
      {
        token: operatorToken,
        language: 'cn',
      },
    );
    expect(cn.body.msgContent).toBe('额度须为 1 到 1,000,000 之间的整数');
    const unknown = await asOperator('/api/operator/grantCredits', { id: '999999', amount: 5, note: 'x' });
    expect(unknown.body.msgContent).toBe(translate('COMPANY_NOT_FOUND', 'en'));
  });

  it('disables a company: its members lose it at once, and enabling gives it back', async () => {
    const info = async () =>
      (await call<UserInfo>(ctx.app, '/api/user/userInfo', {}, { token: adminToken })).body;
    expect((await info()).data.lastCompanyId).toBe(String(company.id));
    const off = await asOperator<OperatorCompanyView>('/api/operator/setCompanyDisabled', {
      id: String(company.id),
      disabled: true,
    });
    expect(off.body.data.disabled).toBe(true);
    expect((await info()).data.lastCompanyId).toBeNull();
    const listed = await call<{ id: string }[]>(
      ctx.app,
      '/api/index/getUserCompanys',
      {},
      { token: adminToken },
    );
    expect(listed.body.data).toEqual([]);
    await asOperator('/api/operator/setCompanyDisabled', { id: String(company.id), disabled: false });
    expect((await info()).data.lastCompanyId).toBe(String(company.id));
    const actions = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.companyId, company.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['operator.disableCompany', 'operator.enableCompany']),
    );
  });

  it('previews an inventory CSV line by line and imports only a clean one', async () => {
    const csv = [
      'serial,model,version,channels',
      'OPS-0001,CC-TH2,standard,temperature:°C:-40:85|humidity:%RH:0:100',
      'OPS-0002,CC-T1,gold,temperature:°C:-40:85',
    ].join('\n');
    const preview = await asOperator<InventoryCsvPreview>('/api/operator/previewInventory', { csv });
    expect(preview.body.data.lines).toEqual([
      { serial: 'OPS-0001', model: 'CC-TH2', version: 'standard', channelCount: 2, exists: false },
    ]);
    expect(preview.body.data.problems).toEqual([
      { line: 3, reason: 'version must be one of basic, standard, elite, premium' },
    ]);
    const refused = await asOperator('/api/operator/importInventory', { csv });
    expect(refused.body.msgContent).toContain('line 3');
    // In the operator's language, the preview's reasons and the refusal alike.
    const inChinese = await call<InventoryCsvPreview>(
      ctx.app,
      '/api/operator/previewInventory',
      { csv },
      { token: operatorToken, language: 'cn' },
    );
    expect(inChinese.body.data.problems).toEqual([
      { line: 3, reason: '版本须为以下之一：basic, standard, elite, premium' },
    ]);
    const refusedInChinese = await call(
      ctx.app,
      '/api/operator/importInventory',
      { csv },
      { token: operatorToken, language: 'cn' },
    );
    expect(refusedInChinese.body.msgContent).toContain('版本须为以下之一');
    const clean = csv.split('\n').slice(0, 2).join('\n');
    const imported = await asOperator('/api/operator/importInventory', { csv: clean });
    expect(imported.body.data).toEqual({ added: 1, existing: 0 });
    const again = await asOperator<InventoryCsvPreview>('/api/operator/previewInventory', { csv: clean });
    expect(again.body.data.lines[0]?.exists).toBe(true);
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, PLATFORM_CHAIN), eq(auditLog.action, 'operator.importInventory')));
    expect(entry?.userId).toBe(operatorId);
  });

  it('lists the inventory with each serial’s bind state', async () => {
    const free = await asOperator<Page<InventoryRowView>>('/api/operator/pageInventory', {
      keyword: 'OPS-0001',
    });
    expect(free.body.data.list).toEqual([expect.objectContaining({ serial: 'OPS-0001', companyId: null })]);
    const bound = await asOperator<Page<InventoryRowView>>('/api/operator/pageInventory', { bound: true });
    expect(bound.body.data.total).toBe(1);
    expect(bound.body.data.list[0]).toMatchObject({
      companyId: String(company.id),
      companyName: 'Acme Cold',
    });
    const unbound = await asOperator<Page<InventoryRowView>>('/api/operator/pageInventory', { bound: false });
    expect(unbound.body.data.list.every((r) => r.companyId === null)).toBe(true);
  });

  it('reads the feedback of every user', async () => {
    await ctx.app.db.insert(feedback).values({
      companyId: company.id,
      userId: company.admin.id,
      content: 'The map is slow',
      imgUrl: '/files/a.png,/files/b.png',
    });
    const page = await asOperator<Page<OperatorFeedbackView>>('/api/operator/pageFeedback', {});
    expect(page.body.data.list[0]).toMatchObject({
      content: 'The map is slow',
      images: ['/files/a.png', '/files/b.png'],
      account: company.admin.account,
      companyName: 'Acme Cold',
    });
  });
});
