import { AuthTags, PlatformTags } from '@coldchain/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { useTestApp } from '../../test/build-app';
import {
  ANY_MEMBER_CALLS,
  bodiesFor,
  buildCompanyWithEverything,
  type CompanyIds,
  callRoute,
  companyDigest,
  memberFactory,
  PUBLIC_CALLS,
} from './matrix-support';

/**
 * The permission matrix, generated from the route table (`app.routePermissions`): every `/api`
 * call is public, an "any signed-in member" call (matrix-support.ts says why), or declares the
 * tag it needs. For every tagged call, a member whose role holds every other tag is refused with
 * "no permission" and nothing of the company changes; a member holding only that tag gets past it.
 */
describe('permission matrix', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 100_000 });
  const NO_PERMISSION = translate('NO_PERMISSION', 'en');
  let ids: CompanyIds;
  let memberWith: ReturnType<typeof memberFactory>;

  const routes = () => [...ctx.app.routePermissions.values()];
  const tagged = () => routes().filter((r) => !r.public && r.tags.length > 0);

  beforeAll(async () => {
    ids = await buildCompanyWithEverything(ctx.app, 'OWN-M');
    memberWith = memberFactory(ctx.app, ids.companyId, ids.rootDepartmentId);
  }, 60_000);

  it('classifies every call: public, any member, or a declared tag', () => {
    const problems: string[] = [];
    for (const route of routes()) {
      const key = `${route.method} ${route.url}`;
      if (route.public) {
        if (!PUBLIC_CALLS.has(key)) problems.push(`${key} is public but not in PUBLIC_CALLS`);
        continue;
      }
      if (PUBLIC_CALLS.has(key)) problems.push(`${key} is in PUBLIC_CALLS but needs a login`);
      if (ANY_MEMBER_CALLS.has(key)) {
        if (route.tags.length > 0) problems.push(`${key} declares ${route.tags} but is listed as any-member`);
        continue;
      }
      if (route.tags.length === 0)
        problems.push(`${key} declares no permission tag and is not in ANY_MEMBER_CALLS`);
      // Platform tags (operator-only calls, modules/operator) are the user's flag, not a role's.
      const known: readonly string[] = [...AuthTags, ...PlatformTags];
      const unknown = route.tags.filter((t) => !known.includes(t));
      if (unknown.length > 0) problems.push(`${key} requires unknown tags ${unknown}`);
    }
    // The open API's key calls (modules/open-api): viewing and editing docking, as API.md says.
    for (const call of ['pageKeys', 'pageUsage'])
      expect(ctx.app.routePermissions.get(`POST /api/openApi/${call}`)?.tags).toEqual(['docking:view']);
    for (const call of ['createKey', 'revokeKey', 'setDevices'])
      expect(ctx.app.routePermissions.get(`POST /api/openApi/${call}`)?.tags).toEqual(['docking:edit']);
    expect(problems).toEqual([]);
    // The walk is real: the calls of this area are in the table with their tags.
    expect(ctx.app.routePermissions.get('POST /api/role/editRole')?.tags).toEqual(['role:edit']);
    expect(ctx.app.routePermissions.get('POST /api/personnel/pageUsers')?.tags).toEqual(['user:view']);
    // Push docking (modules/push-docking): the same tags as the open API's keys.
    for (const call of ['pageUrls', 'pageDeliveries'])
      expect(ctx.app.routePermissions.get(`POST /api/push/${call}`)?.tags).toEqual(['docking:view']);
    for (const call of ['saveUrl', 'setDevices', 'testUrl', 'stopUrl'])
      expect(ctx.app.routePermissions.get(`POST /api/push/${call}`)?.tags).toEqual(['docking:edit']);
    // Logistics addresses (modules/logistics): viewing reads, editing changes.
    for (const call of ['pageAddresses', 'addressDetail'])
      expect(ctx.app.routePermissions.get(`POST /api/logistics/${call}`)?.tags).toEqual(['logistics:view']);
    for (const call of ['saveAddress', 'deleteAddress'])
      expect(ctx.app.routePermissions.get(`POST /api/logistics/${call}`)?.tags).toEqual(['logistics:edit']);
    // Delivery and receiving orders: the same two tags; the receipt link's calls are public.
    for (const call of ['pageDeliveries', 'pageReceiving', 'deliveryDetail', 'deliveryNote'])
      expect(ctx.app.routePermissions.get(`POST /api/logistics/${call}`)?.tags).toEqual(['logistics:view']);
    for (const call of [
      'saveDelivery',
      'departDelivery',
      'arriveDelivery',
      'cancelDelivery',
      'receiveDelivery',
      'sendReceiptLink',
    ])
      expect(ctx.app.routePermissions.get(`POST /api/logistics/${call}`)?.tags).toEqual(['logistics:edit']);
    for (const call of ['linkReceipt', 'linkReceive', 'linkPhoto', 'linkDeliveryNote'])
      expect(ctx.app.routePermissions.get(`POST /api/logistics/${call}`)?.public).toBe(true);
    // Cameras (modules/camera): viewing lists, plays and shows alarm pictures; editing changes.
    for (const call of [
      'pageCameras',
      'cameraDetail',
      'liveAddress',
      'alarmSnapshots',
      'pagePlatformAccounts',
      'screen',
      'saveScreen',
    ])
      expect(ctx.app.routePermissions.get(`POST /api/camera/${call}`)?.tags).toEqual(['camera:view']);
    for (const call of [
      'saveCamera',
      'deleteCamera',
      'savePlatformAccount',
      'deletePlatformAccount',
      'importCameras',
    ])
      expect(ctx.app.routePermissions.get(`POST /api/camera/${call}`)?.tags).toEqual(['camera:edit']);
    expect(tagged().length).toBeGreaterThan(30);
  });

  it('refuses every tagged call to a member lacking its tag, and changes nothing', async () => {
    const failures: string[] = [];
    for (const route of tagged()) {
      // home:view is held by every member, so nobody can lack it.
      const lacking = route.tags.filter((t) => t !== 'home:view');
      if (lacking.length === 0) continue;
      const token = await memberWith(AuthTags.filter((t) => !lacking.includes(t)));
      const before = await companyDigest(ctx.app.db, ids.companyId);
      for (const { body } of bodiesFor(route.body, ids)) {
        const response = await callRoute(ctx.app, route.url, body, token);
        // A call whose refusal the spec words itself (top-up) says that instead.
        const refusal = route.refusal ? translate(route.refusal, 'en') : NO_PERMISSION;
        if (response.body.msgCode !== 500 || response.body.msgContent !== refusal) {
          failures.push(
            `${route.url} ${JSON.stringify(body)} answered ${JSON.stringify(response.body).slice(0, 200)}`,
          );
        }
      }
      const after = await companyDigest(ctx.app.db, ids.companyId);
      const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
      if (changed.length > 0) failures.push(`${route.url} changed ${changed}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('lets a member holding only the tag (plus home:view) past the check', async () => {
    const failures: string[] = [];
    for (const route of tagged()) {
      const token = await memberWith(route.tags);
      // An empty body: the tag is checked before the body, so anything but "no permission"
      // (a validation message, a result) shows the member got past the check.
      const response = await callRoute(ctx.app, route.url, {}, token);
      if (response.body.msgContent === NO_PERMISSION) failures.push(`${route.url} refused [${route.tags}]`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('the check fires before the body is read: an empty body still gets "no permission"', async () => {
    const token = await memberWith(['role:view']);
    const response = await callRoute(ctx.app, '/api/role/addRole', {}, token);
    expect(response.body).toEqual({ msgCode: 500, msgContent: NO_PERMISSION, data: null });
  });
});
