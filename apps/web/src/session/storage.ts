import type Cookies from 'js-cookie';

/** localStorage keys of spec section 3; the names are part of the product (other tools read them). */
export const StorageKey = {
  AccessToken: 'accessToken',
  CompanyId: 'companyId',
  Language: 'language',
  SidebarStatus: 'sidebarStatus',
  AuthTags: 'authTags',
  ReqId: 'reqId',
  Grade: 'grade',
  AlarmId: 'alarmId',
  /** Survives a session clear (spec section 4: "Clearing keeps only the flag about the signature-password setup"). */
  SignPasswordSet: 'signPasswordSet',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
}

/** Lets React components re-render when the token or company changes (useSyncExternalStore). */
export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getAccessToken(): string | null {
  return localStorage.getItem(StorageKey.AccessToken);
}

export function setAccessToken(token: string): void {
  localStorage.setItem(StorageKey.AccessToken, token);
  emit();
}

export function getCompanyId(): string | null {
  return localStorage.getItem(StorageKey.CompanyId);
}

export function setCompanyId(id: string): void {
  localStorage.setItem(StorageKey.CompanyId, id);
  emit();
}

/** After leaving the last company: no company is in scope until one is joined or created. */
export function clearCompanyId(): void {
  localStorage.removeItem(StorageKey.CompanyId);
  emit();
}

export function setAuthTags(tags: string[]): void {
  localStorage.setItem(StorageKey.AuthTags, JSON.stringify(tags));
}

/** Clears everything the session stored, except the signature-password-setup flag. */
export function clearSession(): void {
  const keep = localStorage.getItem(StorageKey.SignPasswordSet);
  const language = localStorage.getItem(StorageKey.Language);
  const sidebar = localStorage.getItem(StorageKey.SidebarStatus);
  for (const key of [
    StorageKey.AccessToken,
    StorageKey.CompanyId,
    StorageKey.AuthTags,
    StorageKey.ReqId,
    StorageKey.Grade,
    StorageKey.AlarmId,
  ]) {
    localStorage.removeItem(key);
  }
  // Language and sidebar state are preferences of the browser, not of the session.
  if (language) localStorage.setItem(StorageKey.Language, language);
  if (sidebar) localStorage.setItem(StorageKey.SidebarStatus, sidebar);
  if (keep !== null) localStorage.setItem(StorageKey.SignPasswordSet, keep);
  emit();
}

/** Sidebar open unless it was explicitly closed ('0'). */
export function readSidebarOpen(): boolean {
  return localStorage.getItem(StorageKey.SidebarStatus) !== '0';
}

export function writeSidebarOpen(open: boolean): void {
  localStorage.setItem(StorageKey.SidebarStatus, open ? '1' : '0');
}

export const RememberCookie = { Account: 'account', Password: 'password' } as const;

export function cookieOptions(days?: number): Cookies.CookieAttributes {
  return {
    sameSite: 'Strict',
    secure: typeof location !== 'undefined' && location.protocol === 'https:',
    ...(days ? { expires: days } : {}),
  };
}
