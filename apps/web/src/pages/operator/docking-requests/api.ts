import type {
  DecideDockingRequest,
  DockingPlatformView,
  DockingRequestView,
  Page,
  SaveDockingPlatformRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/request';

/** The operator's platform docking calls (docs/API.md "Platform docking"). */
export const OPERATOR_DOCK_PATHS = {
  savePlatform: '/api/operator/platform/savePlatform',
  pagePlatforms: '/api/operator/platform/pagePlatforms',
  pageRequests: '/api/operator/platform/pageRequests',
  decideRequest: '/api/operator/platform/decideRequest',
} as const;

const KEY = ['operatorDock'] as const;

export function useOperatorPlatforms(body: { pageNum: number; pageSize: number }) {
  return useQuery({
    queryKey: [...KEY, 'platforms', body],
    queryFn: () => request<Page<DockingPlatformView>>(OPERATOR_DOCK_PATHS.pagePlatforms, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useDockingRequests(body: { pageNum: number; pageSize: number; state?: number }) {
  return useQuery({
    queryKey: [...KEY, 'requests', body],
    queryFn: () => request<Page<DockingRequestView>>(OPERATOR_DOCK_PATHS.pageRequests, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

function useInvalidating<In, Out>(call: (input: In) => Promise<Out>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries({ queryKey: KEY }) });
}

export function useSavePlatform() {
  return useInvalidating((body: Partial<SaveDockingPlatformRequest>) =>
    request<{ id: string }>(OPERATOR_DOCK_PATHS.savePlatform, body),
  );
}

export function useDecideDocking() {
  return useInvalidating((body: Partial<DecideDockingRequest> & { id: string; enable: boolean }) =>
    request<null>(OPERATOR_DOCK_PATHS.decideRequest, body),
  );
}
