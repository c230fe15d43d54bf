import {
  AlarmChannels,
  AlarmEndReasons,
  AlarmTypes,
  auditActionTitles,
  ChannelState,
  DeviceModes,
  DevicePermissionLevels,
  DeviceState,
  MENU_TREE,
  type MenuDefinition,
  OrderKinds,
  ResolveState,
  UpRecord,
  VersionTiers,
} from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { MENU_ICONS } from '../layout/menu-icons';
import { RESOLVE_TYPES } from '../pages/alarms/format';
import { resources } from './resources';

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

/*
 * The catalogues against the code (issue 20: raw keys and English enum values on Chinese
 * screens). Sources are read as text through Vite, so a key used anywhere in the console, and an
 * action anywhere in the server's audit calls, is found without being listed here.
 */
const consoleSources = import.meta.glob<string>(
  ['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);
const serverSources = import.meta.glob<string>(
  ['../../../server/src/**/*.ts', '!../../../server/src/**/*.test.ts'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

/** The node at a dotted key: a string, a subtree, or undefined. */
function lookup(catalogue: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

/** A key resolves when it names a string, or i18next's plural forms of it (`_one`, `_other`). */
function resolves(catalogue: unknown, key: string): boolean {
  if (typeof lookup(catalogue, key) === 'string') return true;
  return typeof lookup(catalogue, `${key}_other`) === 'string';
}

const LANGUAGES = ['en', 'zh-CN'] as const;

describe('keys the code uses', () => {
  it('finds the console sources and the server sources', () => {
    expect(Object.keys(consoleSources).length).toBeGreaterThan(100);
    expect(Object.keys(serverSources).length).toBeGreaterThan(100);
  });

  it("every t('literal') key of the console exists in both languages", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [file, source] of Object.entries(consoleSources)) {
      // `t('a.b')`, `t("a.b")` and `i18n.t('a.b')`, not `format('x')` or `get('x')`.
      for (const match of source.matchAll(/(?<![\w$])t\(\s*(['"])([\w.-]+)\1([^)]{0,80})/g)) {
        const key = match[2]!;
        if (!key.includes('.')) continue;
        checked++;
        // A call asking for `returnObjects` reads a whole group (audit.reason).
        const group = match[3]!.includes('returnObjects');
        for (const language of LANGUAGES) {
          const catalogue = resources[language].translation;
          const ok = group ? typeof lookup(catalogue, key) === 'object' : resolves(catalogue, key);
          if (!ok) missing.push(`${language} ${key} (${file})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(missing).toEqual([]);
  });

  it('every key built from a prefix and a value names a group that exists in both languages', () => {
    const missing: string[] = [];
    for (const [file, source] of Object.entries(consoleSources)) {
      // t(`devices.state.${state}`): the group `devices.state` must exist; its members are
      // checked against the contract's enums below.
      for (const match of source.matchAll(/(?<![\w$])t\(\s*`([\w.]+)\.\$\{/g)) {
        const prefix = match[1]!;
        for (const language of LANGUAGES) {
          const node = lookup(resources[language].translation, prefix);
          if (typeof node !== 'object' || node === null) missing.push(`${language} ${prefix} (${file})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('enums shown to people', () => {
  const power = UpRecord.shape.power.unwrap().options;
  const groups: [string, readonly (string | number)[]][] = [
    ['alarms.type', AlarmTypes],
    ['alarms.resolveState', Object.values(ResolveState)],
    ['alarms.resolveType', RESOLVE_TYPES],
    ['alarms.setting.channel', AlarmChannels],
    ['alarms.detail.endReason', AlarmEndReasons],
    ['devices.state', Object.values(DeviceState)],
    ['devices.sensor.state', Object.values(ChannelState)],
    ['devices.version', VersionTiers],
    ['devices.mode', DeviceModes],
    ['devices.power', power],
    ['devices.sensorType', ['temperature', 'humidity']],
    ['devices.batch.permission', DevicePermissionLevels],
  ];
  it.each(groups)('%s has a text for every value in both languages', (prefix, values) => {
    expect(values.length).toBeGreaterThan(0);
    for (const language of LANGUAGES) {
      const missing = values.filter((v) => !resolves(resources[language].translation, `${prefix}.${v}`));
      expect(missing, language).toEqual([]);
    }
  });

  it('Chinese enum texts are not the English ones left untranslated', () => {
    const same: string[] = [];
    for (const [prefix, values] of groups) {
      for (const value of values) {
        const en = lookup(resources.en.translation, `${prefix}.${value}`);
        const zh = lookup(resources['zh-CN'].translation, `${prefix}.${value}`);
        // Brand names (WhatsApp) are the same in both.
        if (en === zh && !/^[A-Z][a-z]+[A-Z]/.test(String(en))) same.push(`${prefix}.${value}`);
      }
    }
    expect(same).toEqual([]);
  });
});

describe('operation log sentences', () => {
  /** Every action code the server can write: `action: 'x.y'` (ternaries too) and `order.${kind}`. */
  function serverActions(): Set<string> {
    const actions = new Set<string>(Object.keys(auditActionTitles));
    for (const source of Object.values(serverSources)) {
      if (!source.includes('recordAudit') && !source.includes('auditSelf')) continue;
      for (const line of source.matchAll(/\baction:\s*([^,\n]+)/g)) {
        for (const literal of line[1]!.matchAll(/'([a-z][A-Za-z]*\.[a-z][A-Za-z]*)'/g))
          actions.add(literal[1]!);
        if (line[1]!.includes('`order.${')) for (const kind of OrderKinds) actions.add(`order.${kind}`);
      }
    }
    return actions;
  }

  it('finds the actions the server records, ternaries and templates included', () => {
    const actions = serverActions();
    for (const known of [
      'device.add',
      'joinRequest.reject',
      'company.edit',
      'order.recovery',
      'user.bindWeChat',
    ])
      expect(actions.has(known), known).toBe(true);
  });

  it('has a sentence for every action the server can record, in both languages', () => {
    const missing: string[] = [];
    for (const action of serverActions()) {
      for (const language of LANGUAGES) {
        const sentence = lookup(resources[language].translation, `audit.sentence.${action}`);
        if (typeof sentence !== 'string' || !sentence.trim()) missing.push(`${language} ${action}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
