import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import {
  fetchClientConfig,
  fetchUnreadNotices,
  fetchUserCompanies,
  fetchUserInfo,
  fetchUserPowers,
} from '../api/calls';
import { getAccessToken, getCompanyId, setAuthTags, subscribeSession } from './storage';

/** Server state of the session lives in TanStack Query; these keys are dropped on logout. */
export const QueryKey = {
  userInfo: ['session', 'userInfo'],
  powers: ['session', 'powers'],
  companies: ['session', 'companies'],
  notices: ['session', 'notices'],
  clientConfig: ['clientConfig'],
} as const;

export const NOTICE_POLL_MS = 60_000;

/**
 * The user, the powers and the companies are read by many parts of a screen (the route table, the
 * guard, the layout, each button's rights); those that mount after the first answer came back
 * would each ask again if the answer went stale at once (getUserPowers was sent three times per
 * page load). Whatever changes them here refreshes them explicitly (login, company switch, profile
 * and role edits invalidate ['session']); a change made by someone else shows within a minute, on
 * the next screen that reads them.
 */
export const SESSION_STALE_MS = 60_000;

export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribeSession, getAccessToken);
}

export function useCompanyId(): string | null {
  return useSyncExternalStore(subscribeSession, getCompanyId);
}

export function useUserInfo() {
  const token = useAccessToken();
  return useQuery({
    queryKey: QueryKey.userInfo,
    queryFn: fetchUserInfo,
    enabled: !!token,
    retry: false,
    staleTime: SESSION_STALE_MS,
  });
}

/**
 * A page load with a session asks for the user at once, beside the powers, so the answer the route
 * guard waits for (RequireAuth) travels while the layout's chunks download, not after them.
 * Logging in loads the user itself (session/actions.ts), so only a session present when the page
 * loads is asked for here.
 */
export function usePrefetchUserInfo(wanted: boolean): void {
  const queryClient = useQueryClient();
  // Only the screen the page loaded on decides: a later navigation is not a page load.
  const wantedAtLoad = useRef(wanted);
  useEffect(() => {
    if (!wantedAtLoad.current || !getAccessToken()) return;
    void queryClient.prefetchQuery({
      queryKey: QueryKey.userInfo,
      queryFn: fetchUserInfo,
      retry: false,
      staleTime: SESSION_STALE_MS,
    });
  }, [queryClient]);
}

export function usePowers() {
  const token = useAccessToken();
  return useQuery({
    queryKey: QueryKey.powers,
    queryFn: async () => {
      const powers = await fetchUserPowers();
      setAuthTags(powers.authTags);
      return powers;
    },
    enabled: !!token,
    retry: false,
    staleTime: SESSION_STALE_MS,
  });
}

export function useCompanies() {
  const token = useAccessToken();
  return useQuery({
    queryKey: QueryKey.companies,
    queryFn: fetchUserCompanies,
    enabled: !!token,
    retry: false,
    staleTime: SESSION_STALE_MS,
  });
}

export function useUnreadNotices() {
  const token = useAccessToken();
  return useQuery({
    queryKey: QueryKey.notices,
    queryFn: fetchUnreadNotices,
    enabled: !!token,
    refetchInterval: NOTICE_POLL_MS,
    retry: false,
  });
}

export function useClientConfig() {
  return useQuery({
    queryKey: QueryKey.clientConfig,
    queryFn: fetchClientConfig,
    staleTime: Infinity,
    retry: false,
  });
}

/** Whether the current user holds a permission tag (spec section 6), false until the powers load. */
export function useHasAuthTag(tag: string): boolean {
  return usePowers().data?.authTags.includes(tag) ?? false;
}
