import { type Locale, menuTitles } from '@coldchain/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import Cookies from 'js-cookie';
import { initReactI18next } from 'react-i18next';
import { cookieOptions, StorageKey } from '../session/storage';
import enAccount from './en/account.json';
import enAlarms from './en/alarms.json';
import enAudit from './en/audit.json';
import enBilling from './en/billing.json';
import enCalibration from './en/calibration.json';
import enCommon from './en/common.json';
import enDevices from './en/devices.json';
import enFeedback from './en/feedback.json';
import enGroups from './en/groups.json';
import enHome from './en/home.json';
import enLayout from './en/layout.json';
import enLogin from './en/login.json';
import enMap from './en/map.json';
import enOrg from './en/org.json';
import enProfile from './en/profile.json';
import enRequest from './en/request.json';
import zhAccount from './zh-CN/account.json';
import zhAlarms from './zh-CN/alarms.json';
import zhAudit from './zh-CN/audit.json';
import zhBilling from './zh-CN/billing.json';
import zhCalibration from './zh-CN/calibration.json';
import zhCommon from './zh-CN/common.json';
import zhDevices from './zh-CN/devices.json';
import zhFeedback from './zh-CN/feedback.json';
import zhGroups from './zh-CN/groups.json';
import zhHome from './zh-CN/home.json';
import zhLayout from './zh-CN/layout.json';
import zhLogin from './zh-CN/login.json';
import zhMap from './zh-CN/map.json';
import zhOrg from './zh-CN/org.json';
import zhProfile from './zh-CN/profile.json';
import zhRequest from './zh-CN/request.json';

/** Menu titles live in the contract so that the server's audit trail names pages the same way. */
function menuResources(lang: 'en' | 'cn'): Record<string, string> {
  return Object.fromEntries(Object.entries(menuTitles).map(([name, titles]) => [name, titles[lang]]));
}

export const resources = {
  en: {
    translation: {
      common: enCommon,
      request: enRequest,
      login: enLogin,
      account: enAccount,
      layout: enLayout,
      home: enHome,
      feedback: enFeedback,
      profile: enProfile,
      groups: enGroups,
      devices: enDevices,
      alarms: enAlarms,
      map: enMap,
      audit: enAudit,
      billing: enBilling,
      calibration: enCalibration,
      org: enOrg,
      menu: menuResources('en'),
    },
  },
  'zh-CN': {
    translation: {
      common: zhCommon,
      request: zhRequest,
      login: zhLogin,
      account: zhAccount,
      layout: zhLayout,
      home: zhHome,
      feedback: zhFeedback,
      profile: zhProfile,
      groups: zhGroups,
      devices: zhDevices,
      alarms: zhAlarms,
      map: zhMap,
      audit: zhAudit,
      billing: zhBilling,
      calibration: zhCalibration,
      org: zhOrg,
      menu: menuResources('cn'),
    },
  },
} as const;

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
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});
dayjs.locale(i18n.language === 'zh-CN' ? 'zh-cn' : 'en');

/** Switches the interface language and remembers it in the cookie and local storage (spec section 1). */
export async function changeLanguage(locale: Locale): Promise<void> {
  Cookies.set(StorageKey.Language, locale, cookieOptions(365));
  localStorage.setItem(StorageKey.Language, locale);
  dayjs.locale(locale === 'zh-CN' ? 'zh-cn' : 'en');
  await i18n.changeLanguage(locale);
}

export default i18n;
