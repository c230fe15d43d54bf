import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QueryKey } from '../../session/queries';
import { fetchPersonalInfo } from './api';

export const PersonalKey = {
  info: ['personal', 'info'],
  notices: ['personal', 'notices'],
} as const;

export function usePersonalInfo() {
  return useQuery({ queryKey: PersonalKey.info, queryFn: fetchPersonalInfo, retry: false });
}

/** After a change: the page's own data, and the session data the top bar shows (name, picture, badge). */
export function useRefreshPersonal() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: PersonalKey.info }),
      queryClient.invalidateQueries({ queryKey: QueryKey.userInfo }),
    ]);
  }, [queryClient]);
}

export function useRefreshNotices() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: PersonalKey.notices }),
      queryClient.invalidateQueries({ queryKey: QueryKey.notices }),
    ]);
  }, [queryClient]);
}
