import type { FullCatalogue } from './catalogue';
import en from './catalogue-en';
import zhCN from './catalogue-zh-CN';

/** Both languages in full, for tests that compare the catalogues; the console loads them per language. */
export const resources: Record<'en' | 'zh-CN', { translation: FullCatalogue }> = {
  en: { translation: en },
  'zh-CN': { translation: zhCN },
};
