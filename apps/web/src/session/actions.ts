import { Limits, type LoginNeedsCode } from '@coldchain/contract';
import type { QueryClient } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import { doLogin, fetchUserCompanies, fetchUserInfo, logout, switchUserCompany } from '../api/calls';
import { QueryKey } from './queries';
import {
  clearSession,
  cookieOptions,
  getCompanyId,
  RememberCookie,
  setAccessToken,
  setCompanyId,
} from './storage';

/** Remembered credentials (spec section 9: 7 days); unchecking forgets them. */
export function rememberCredentials(remember: boolean, account: string, password: string): void {
  if (remember) {
    Cookies.set(RememberCookie.Account, account, cookieOptions(Limits.rememberCookieDays));
    Cookies.set(RememberCookie.Password, password, cookieOptions(Limits.rememberCookieDays));
  } else {
    Cookies.remove(RememberCookie.Account);
    Cookies.remove(RememberCookie.Password);
  }
}

export function rememberedCredentials(): { account: string; password: string } | null {
  const account = Cookies.get(RememberCookie.Account);
  const password = Cookies.get(RememberCookie.Password);
  return account && password ? { account, password } : null;
}

/**
 * Logs in and picks the company in scope: the last used one (spec section 1), else the first.
 * The user info and companies go into the cache so the layout does not ask twice.
 */
export async function logIn(
  queryClient: QueryClient,
  account: string,
  password: string,
  extra: { code?: string; deviceId?: string } = {},
): Promise<LoginNeedsCode | null> {
  const answer = await doLogin(account, password, extra);
  // An abnormal login (new device or IP, recent failures): the page asks for the code sent.
  if ('needCode' in answer) return answer;
  await startSession(queryClient, answer.accessToken);
  return null;
}

/** Stores a token from any login (password, QR, address code) and loads the session around it. */
export async function startSession(queryClient: QueryClient, accessToken: string): Promise<void> {
  clearSession();
  queryClient.removeQueries({ queryKey: ['session'] });
  setAccessToken(accessToken);
  const [user, companies] = await Promise.all([fetchUserInfo(), fetchUserCompanies()]);
  queryClient.setQueryData(QueryKey.userInfo, user);
  queryClient.setQueryData(QueryKey.companies, companies);
  const known = (id: string | null | undefined) => !!id && companies.some((c) => c.id === id);
  const companyId = known(user.lastCompanyId) ? user.lastCompanyId : companies[0]?.id;
  if (companyId && companyId !== getCompanyId()) setCompanyId(companyId);
}

/** Ends the session on the server and here; the route table goes with the cached powers. */
export async function logOut(queryClient: QueryClient): Promise<void> {
  try {
    await logout();
  } finally {
    clearSession();
    queryClient.removeQueries({ queryKey: ['session'] });
  }
}

/**
 * Makes `id` the company in scope on the server and here, then reloads what belongs to the
 * company: first the session (menus, rights, counts), then every page's data, which the
 * companyId header now answers differently. Used by the selector and by the company loop.
 */
export async function switchCompany(queryClient: QueryClient, id: string): Promise<void> {
  await switchUserCompany(id);
  setCompanyId(id);
  await queryClient.invalidateQueries({ queryKey: ['session'] });
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
}
