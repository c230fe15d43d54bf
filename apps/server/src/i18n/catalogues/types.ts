import type { WireLanguage } from '@coldchain/contract';

/** One message per key, in every wire language. */
export type Catalogue = Record<string, Record<WireLanguage, string>>;
export type LabelCatalogue = Record<string, Record<WireLanguage, string>>;
