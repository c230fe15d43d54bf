import {
  MENU_TREE,
  type MenuDefinition,
  type MenuEntry,
  type OperatorCompanyView,
  ServiceAuthTags,
  type UserPowers,
} from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { call, useTestApp } from '../../test/build-app';
import { buildUser, login } from '../../test/factories';
import { authChanged } from '../auth/auth-changes';
import {
  bodiesFor,
  buildCompanyWithEverything,
  type CompanyIds,
  callRoute,
  companyDigest,
} from '../org/matrix-support';
import { users } from '../users/users.table';
import { companies } from './companies.table';

const NO_PERMISSION = translate('NO_PERMISSION', 'en');
const HOUR = 3_600_000;

/** Every menu name that needs `service`, itself or through its directory. */
function menusNeeding(service: string, tree: MenuDefinition[] = MENU_TREE, inherited = false): string[] {
  return tree.flatMap((def) => {
    const needs = inherited || def.serviceTag === service;
    return [...(needs ? [def.name] : []), ...menusNeeding(service, def.children ?? [], needs)];
  });
}

const namesOf = (entries: MenuEntry[]): string[] => entries.flatMap((e) => [e.name, ...namesOf(e.children)]);

/**
 * Supplier-enabled services (issue 17 item 5): every call the route table lists with a service
 * gate (`requireService`) answers "No permission for this service or operation" while its service
 * is off or past its expiry, and the menus drop what needs it.
 */
describe('service gating', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 100_000 });
  let ids: CompanyIds;
  let token: string;

  const setServices = async (services: string[], expiry: Record<string, string> = {}) => {
    await ctx.app.db
      .update(companies)
      .set({ services, serviceExpiry: expiry })
      .where(eq(companies.id, ids.companyId));
    authChanged({ companyId: ids.companyId });
  };
  const gated = () => [...ctx.app.routePermissions.values()].filter((r) => (r.services ?? []).length > 0);

  beforeAll(async () => {
    ids = await buildCompanyWithEverything(ctx.app, 'SVC');
    const [admin] = await ctx.app.db.select().from(users).where(eq(users.id, ids.adminUserId));
    token = await login(ctx.app, admin!.account);
  }, 60_000);

  it('refuses every gated call while its service is off or expired, and lets it through when on', async () => {
    // The walk is real: the gated areas are all in the table.
    const services = new Set(gated().flatMap((r) => r.services ?? []));
    for (const service of [
      'service:logistics',
      'service:openApi',
      'service:pushDock',
      'service:platformDock',
      'service:camera',
      'service:dataBackup',
      'service:operationReport',
      'service:dataScreen',
    ]) {
      expect(services, service).toContain(service);
    }
    expect(gated().length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const route of gated()) {
      const body = bodiesFor(route.body, ids).find((b) => b.valid)?.body ?? {};
      const others = ServiceAuthTags.filter((t) => !route.services!.includes(t));
      const past = new Date(Date.now() - HOUR).toISOString();
      const states: [string, () => Promise<void>][] = [
        ['off', () => setServices(others)],
        [
          'expired',
          () => setServices([...ServiceAuthTags], Object.fromEntries(route.services!.map((s) => [s, past]))),
        ],
      ];
      for (const [state, apply] of states) {
        await apply();
        const before = await companyDigest(ctx.app.db, ids.companyId);
        const answer = await callRoute(ctx.app, route.url, body, token);
        if (answer.body.msgContent !== NO_PERMISSION)
          failures.push(`${route.url} (${state}) answered ${JSON.stringify(answer.body).slice(0, 160)}`);
        const after = await companyDigest(ctx.app.db, ids.companyId);
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length > 0) failures.push(`${route.url} (${state}) changed ${changed}`);
      }
      await setServices([...ServiceAuthTags], {
        [route.services![0]!]: new Date(Date.now() + HOUR).toISOString(),
      });
      const on = await callRoute(ctx.app, route.url, body, token);
      if (on.body.msgContent === NO_PERMISSION) failures.push(`${route.url} refused with its service on`);
    }
    await setServices([...ServiceAuthTags]);
    expect(failures).toEqual([]);
  }, 300_000);

  it('hides every menu entry of a service that is off', async () => {
    const failures: string[] = [];
    for (const service of ServiceAuthTags) {
      const needing = menusNeeding(service);
      await setServices(ServiceAuthTags.filter((t) => t !== service));
      const powers = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token });
      const shown = namesOf(powers.body.data.menus);
      const leaked = needing.filter((name) => shown.includes(name));
      if (leaked.length > 0) failures.push(`${service} off still shows ${leaked}`);
      if (powers.body.data.serviceAuthTags.includes(service))
        failures.push(`${service} still in serviceAuthTags`);
    }
    await setServices([...ServiceAuthTags]);
    expect(failures).toEqual([]);
    // And on, the logistics directory is there (the walk above is not vacuous).
    const powers = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token });
    expect(namesOf(powers.body.data.menus)).toContain('logistics');
  });

  it('switches a service off at its expiry by itself, even for a session read before', async () => {
    const operator = await buildUser(ctx.app.db);
    await ctx.app.db.update(users).set({ isOperator: true }).where(eq(users.id, operator.id));
    const operatorToken = await login(ctx.app, operator.account);
    const set = (services: { tag: string; expireTime?: number | null }[]) =>
      call<OperatorCompanyView>(
        ctx.app,
        '/api/operator/setServices',
        { id: String(ids.companyId), services },
        { token: operatorToken },
      );
    const pastAnswer = await set([{ tag: 'service:logistics', expireTime: Date.now() - 1000 }]);
    expect(pastAnswer.body.msgContent).toBe(translate('SERVICE_EXPIRY_PAST', 'en'));
    const unknownTag = await set([{ tag: 'service:teleport' }]);
    expect(unknownTag.body.msgCode).toBe(500);
    expect(unknownTag.body.msgContent).toContain('not a known service');

    const end = Date.now() + 1500;
    const answer = await set([{ tag: 'service:logistics', expireTime: end }, { tag: 'service:openApi' }]);
    expect(answer.body.data.services).toEqual([
      { tag: 'service:logistics', expireTime: end, active: true },
      { tag: 'service:openApi', expireTime: null, active: true },
    ]);
    const page = () => callRoute(ctx.app, '/api/logistics/pageAddresses', {}, token);
    expect((await page()).body.msgCode).toBe(200);
    // The session's caller stays cached, and nothing announces the expiry: it must still apply.
    await new Promise((resolve) => setTimeout(resolve, end - Date.now() + 50));
    expect((await page()).body.msgContent).toBe(NO_PERMISSION);
    const powers = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token });
    expect(powers.body.data.serviceAuthTags).toEqual(['service:openApi']);
    expect(namesOf(powers.body.data.menus)).not.toContain('logistics');
    const detail = await call<OperatorCompanyView>(
      ctx.app,
      '/api/operator/companyDetail',
      { id: String(ids.companyId) },
      { token: operatorToken },
    );
    expect(detail.body.data.services[0]).toEqual({
      tag: 'service:logistics',
      expireTime: end,
      active: false,
    });
    await setServices([...ServiceAuthTags]);
  });
});
