import { OperationRunStatuses, ReportRunStatuses } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { resources } from '../../../i18n/resources';

/*
 * The shared task and run pieces build their keys from the page's namespace (`${ns}.task.saved`),
 * which the catalogue check over `t('literal')` keys (i18n.test.ts) cannot see: this reads the same
 * sources and checks every such key for both pages, in both languages.
 */
const sources = import.meta.glob<string>(['./*.tsx', '!./*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Each page's namespace with who gets its files (`RecipientFields` kind) and its run status group. */
const PAGES = [
  { ns: 'reports', kind: 'recipients', statusGroup: 'reports.runStatus', statuses: ReportRunStatuses },
  {
    ns: 'operationReports',
    kind: 'notifiers',
    statusGroup: 'operationReports.status',
    statuses: OperationRunStatuses,
  },
] as const;

/** The kind placeholder as it stands in the shared sources. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a placeholder, not one to fill
const KIND = '${kind}';

function lookup(catalogue: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

describe('keys of the shared report pieces', () => {
  const templates = Object.values(sources).flatMap((source) =>
    [...source.matchAll(/`\$\{ns\}\.([\w.]+(?:\$\{kind\}[\w]*)?)`/g)].map((m) => m[1]!),
  );

  it('finds the keys the shared pieces build', () => {
    expect(Object.keys(sources).length).toBeGreaterThanOrEqual(3);
    expect(templates).toEqual(
      expect.arrayContaining(['task.saved', 'common.loadFailed', `rule.${KIND}Required`]),
    );
  });

  it.each(PAGES)('every key exists for $ns in both languages', ({ ns, kind }) => {
    const missing: string[] = [];
    for (const template of templates) {
      const key = `${ns}.${template.replace(KIND, kind)}`;
      for (const language of ['en', 'zh-CN'] as const)
        if (typeof lookup(resources[language].translation, key) !== 'string')
          missing.push(`${language} ${key}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(PAGES)(
    'every run status has a text under $statusGroup in both languages',
    ({ statusGroup, statuses }) => {
      const missing: string[] = [];
      for (const status of statuses)
        for (const language of ['en', 'zh-CN'] as const)
          if (typeof lookup(resources[language].translation, `${statusGroup}.${status}`) !== 'string')
            missing.push(`${language} ${statusGroup}.${status}`);
      expect(missing).toEqual([]);
    },
  );
});
