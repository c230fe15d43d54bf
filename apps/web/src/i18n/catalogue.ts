import { type Locale, menuTitles } from '@coldchain/contract';

/** A domain's strings: nested objects of strings, as in `en/<domain>.json`. */
export interface CatalogueTree {
  [key: string]: string | CatalogueTree;
}
/** Every domain of one language under the one i18next namespace, keyed by domain (`login.submit`). */
export type Catalogue = Record<string, CatalogueTree>;
/** A whole language: every domain and the menu titles. */
export type FullCatalogue = Catalogue & { menu: Record<string, string> };

/**
 * Turns the JSON files of one language (`./en/alarms.json` -> its strings) into the catalogue:
 * each file is a domain named after the file, and the menu titles come from the contract so that
 * the server's audit trail names pages the same way.
 */
export function buildCatalogue(files: Record<string, CatalogueTree>, locale: Locale): FullCatalogue {
  const catalogue: Catalogue = {};
  for (const [file, strings] of Object.entries(files)) {
    const domain = /([^/]+)\.json$/.exec(file)?.[1];
    if (domain) catalogue[domain] = strings;
  }
  const lang = locale === 'zh-CN' ? 'cn' : 'en';
  const menu = Object.fromEntries(Object.entries(menuTitles).map(([name, titles]) => [name, titles[lang]]));
  return { ...catalogue, menu };
}
