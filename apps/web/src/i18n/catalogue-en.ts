import { buildCatalogue, type CatalogueTree } from './catalogue';

/** Every English string of the console; loaded once the user goes past the login (i18n/index.ts). */
export default /* @__PURE__ */ buildCatalogue(
  import.meta.glob<CatalogueTree>('./en/*.json', { eager: true, import: 'default' }),
  'en',
);
