import type { Locale } from '@coldchain/contract';
import i18n from 'i18next';
import Cookies from 'js-cookie';
import { initReactI18next } from 'react-i18next';
import { cookieOptions, StorageKey } from '../session/storage';
import type { Catalogue } from './catalogue';
import enCommon from './en/common.json';
import enLogin from './en/login.json';
import enRequest from './en/request.json';
import zhCommon from './zh-CN/common.json';
import zhLogin from './zh-CN/login.json';
import zhRequest from './zh-CN/request.json';

/*
 * Strings load in two parts (docs/performance.md, "Console weight"). The first page a visitor
 * opens is usually /login, so the entry bundle carries only what the login page, the request
 * wrapper's messages and the loading spinner say, in both languages (a few KB). Every other string
 * of the language in use (all domains and the menu titles, about 45 KB per language before
 * compression) is one chunk per language, loaded by the router before any other screen renders
 * (loadConsoleCatalogue) and by changeLanguage before it switches.
 */
const SHELL: Record<Locale, Catalogue> = {
  en: { common: enCommon, request: enRequest, login: enLogin },
  'zh-CN': { common: zhCommon, request: zhRequest, login: zhLogin },
};

const CONSOLE_CATALOGUES: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  en: () => import('./catalogue-en'),
  'zh-CN': () => import('./catalogue-zh-CN'),
};

export const SUPPORTED: readonly Locale[] = ['en', 'zh-CN'];

function normalize(value: string | null | undefined): Locale | null {
  return value && (SUPPORTED as readonly string[]).includes(value) ? (value as Locale) : null;
}

/** English unless the browser remembered Simplified Chinese (local storage first, then the cookie). */
export function initialLanguage(): Locale {
  return (
    normalize(localStorage.getItem(StorageKey.Language)) ??
    normalize(Cookies.get(StorageKey.Language)) ??
    'en'
  );
}

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: SHELL.en },
    'zh-CN': { translation: SHELL['zh-CN'] },
  },
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // Components re-render when a catalogue arrives, so a language switched by i18n.changeLanguage
  // directly (not through changeLanguage below) still ends up with every string.
  react: { bindI18nStore: 'added' },
});

/** Whether a screen past the login asked for the whole catalogue: a language switch then loads it too. */
let consoleWanted = false;
const loading = new Map<Locale, Promise<void>>();

function loadConsoleFor(locale: Locale): Promise<void> {
  let pending = loading.get(locale);
  if (!pending) {
    pending = CONSOLE_CATALOGUES[locale]().then(({ default: catalogue }) => {
      i18n.addResourceBundle(locale, 'translation', catalogue, true, true);
    });
    // A chunk that failed to load (network down) is asked for again next time.
    pending.catch(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending;
}

function activeLocale(): Locale {
  return normalize(i18n.language) ?? 'en';
}

/** Dates follow the language too; dayjs is needed only past the login, so it loads with the strings. */
const loadDayjsLocale = () => import('./dayjs-locale');

/** Loads every string of the console in the language in use; screens past the login wait for it. */
export async function loadConsoleCatalogue(): Promise<void> {
  consoleWanted = true;
  const [{ setDayjsLocale }] = await Promise.all([loadDayjsLocale(), loadConsoleFor(activeLocale())]);
  setDayjsLocale(activeLocale());
}

/** Both languages in full, before anything renders (unit tests render screens without the router). */
export async function loadEveryCatalogue(): Promise<void> {
  consoleWanted = true;
  await Promise.all([...SUPPORTED.map(loadConsoleFor), loadDayjsLocale()]);
}

i18n.on('languageChanged', (language) => {
  const locale = normalize(language);
  if (consoleWanted && locale) loadConsoleFor(locale).catch(() => undefined);
});

/** Switches the interface language and remembers it in the cookie and local storage (spec section 1). */
export async function changeLanguage(locale: Locale): Promise<void> {
  if (consoleWanted) {
    const [{ setDayjsLocale }] = await Promise.all([loadDayjsLocale(), loadConsoleFor(locale)]);
    setDayjsLocale(locale);
  }
  Cookies.set(StorageKey.Language, locale, cookieOptions(365));
  localStorage.setItem(StorageKey.Language, locale);
  await i18n.changeLanguage(locale);
}

export default i18n;
