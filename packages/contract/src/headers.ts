/** Request headers of spec section 7. Header names are case-insensitive on the wire. */
export const Header = {
  Language: 'language',
  Platform: 'platform',
  AccessToken: 'accessToken',
  CompanyId: 'companyId',
} as const;

/** Values of the `language` header: `cn` for Simplified Chinese, anything else is English. */
export type WireLanguage = 'cn' | 'en';
export type Locale = 'en' | 'zh-CN';

/** Spec section 7: `cn` if the language contains zh, else `en`. */
export function toWireLanguage(language: string | undefined | null): WireLanguage {
  return language && /zh|cn/i.test(language) ? 'cn' : 'en';
}

export function localeOf(wire: string | undefined | null): Locale {
  return toWireLanguage(wire) === 'cn' ? 'zh-CN' : 'en';
}

export const Platform = { Web: 1, Mobile: 2, OpenApi: 3 } as const;
export type Platform = (typeof Platform)[keyof typeof Platform];
