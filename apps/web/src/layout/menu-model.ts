import { type MenuEntry, MenuType } from '@coldchain/contract';

/** Pure helpers over the server's menu tree; the sidebar, breadcrumb and routes share them. */

export function flattenMenus(menus: MenuEntry[]): MenuEntry[] {
  return menus.flatMap((entry) => [entry, ...flattenMenus(entry.children ?? [])]);
}

/** Entries from the top level down to the one whose url is `pathname`; empty when none matches. */
export function findTrail(menus: MenuEntry[], pathname: string): MenuEntry[] {
  for (const entry of menus) {
    if (entry.url === pathname) return [entry];
    const below = findTrail(entry.children ?? [], pathname);
    if (below.length > 0) return [entry, ...below];
  }
  return [];
}

/** The sidebar key to highlight: a hidden page highlights its `activeMenu` parent. */
export function selectedMenuKey(menus: MenuEntry[], pathname: string): string {
  const entry = findTrail(menus, pathname).at(-1);
  if (!entry) return pathname;
  return entry.type === MenuType.HiddenPage && entry.activeMenu ? entry.activeMenu : entry.url;
}

/** Directories that must be open for `key` to be visible. */
export function openKeysFor(menus: MenuEntry[], key: string): string[] {
  return findTrail(menus, key)
    .slice(0, -1)
    .filter((entry) => entry.type === MenuType.Directory)
    .map((entry) => entry.url);
}

/** Breadcrumb trail: a hidden page shows the entry it belongs to before itself. */
export function breadcrumbTrail(menus: MenuEntry[], pathname: string): MenuEntry[] {
  const trail = findTrail(menus, pathname);
  const last = trail.at(-1);
  if (last?.type === MenuType.HiddenPage && last.activeMenu) {
    const parent = flattenMenus(menus).find((e) => e.url === last.activeMenu);
    if (parent && !trail.includes(parent)) return [...trail.slice(0, -1), parent, last];
  }
  return trail;
}

export function isShownInMenu(entry: MenuEntry): boolean {
  return entry.type === MenuType.Page || entry.type === MenuType.Directory;
}
