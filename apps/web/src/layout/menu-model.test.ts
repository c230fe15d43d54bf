import { buildMenuEntries, MENU_TREE, type MenuDefinition } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { breadcrumbTrail, openKeysFor, selectedMenuKey } from './menu-model';

const tags = (defs: MenuDefinition[]): string[] =>
  defs.flatMap((d) => [d.authTag ?? '', d.serviceTag ?? '', ...tags(d.children ?? [])]);
const all = new Set(tags(MENU_TREE));
const menus = buildMenuEntries(all, all);

describe('menu model', () => {
  it('a hidden page selects its activeMenu and opens its directory', () => {
    const key = selectedMenuKey(menus, '/user/organization/departmentDetail');
    expect(key).toBe('/user/organization');
    expect(openKeysFor(menus, key)).toEqual(['/user']);
  });

  it('a shown page selects itself; an unknown path selects nothing known', () => {
    expect(selectedMenuKey(menus, '/alarm/alarmSetting')).toBe('/alarm/alarmSetting');
    expect(openKeysFor(menus, '/nowhere')).toEqual([]);
  });

  it('the breadcrumb of a hidden page goes through the entry it highlights', () => {
    const trail = breadcrumbTrail(menus, '/customizedPushDock/customizedPushDevice/customizedPushUrl');
    expect(trail.map((e) => e.name)).toEqual([
      'customizedPushDock',
      'customizedPushDevice',
      'customizedPushUrl',
    ]);
  });
});
