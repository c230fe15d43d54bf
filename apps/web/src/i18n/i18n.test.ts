import { MENU_TREE, type MenuDefinition } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { MENU_ICONS } from '../layout/menu-icons';
import { resources } from '.';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('translations', () => {
  it('every English string has a Simplified Chinese twin, and none is empty', () => {
    const en = keysOf(resources.en.translation).sort();
    const zh = keysOf(resources['zh-CN'].translation).sort();
    expect(zh).toEqual(en);
    const values = (tree: unknown): string[] =>
      typeof tree === 'string' ? [tree] : Object.values(tree as object).flatMap(values);
    expect(values(resources['zh-CN'].translation).every((v) => v.trim().length > 0)).toBe(true);
  });

  it('has a title for every menu entry of the contract tree', () => {
    const names = (defs: MenuDefinition[]): string[] =>
      defs.flatMap((d) => [d.name, ...names(d.children ?? [])]);
    for (const name of names(MENU_TREE)) {
      expect(resources.en.translation.menu[name], name).toBeTruthy();
      expect(resources['zh-CN'].translation.menu[name], name).toBeTruthy();
    }
  });

  it('the sidebar knows every icon the menu tree names', () => {
    const icons = MENU_TREE.map((d) => d.icon).filter((icon): icon is string => !!icon);
    for (const icon of icons) expect(MENU_ICONS[icon], icon).toBeDefined();
  });
});
