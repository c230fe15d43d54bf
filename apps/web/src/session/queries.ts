import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
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

export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribeSession, getAccessToken);
}

export function useCompanyId(): string | null {
  return useSyncExternalStore(subscribeSession, getCompanyId);
}

export function useUserInfo() {
  const token = useAccessToken();
  return useQuery({ queryKey: QueryKey.userInfo, queryFn: fetchUserInfo, enabled: !!token, retry: false });
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
  });
}

export function useCompanies() {
  const token = useAccessToken();
  return useQuery({
    queryKey: QueryKey.companies,
    queryFn: fetchUserCompanies,
    enabled: !!token,
    retry: false,
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
