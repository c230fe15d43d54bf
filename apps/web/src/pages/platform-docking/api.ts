import type {
  ApplyDockingRequest,
  CompanyDockingView,
  CompanyPlatformView,
  Page,
  PushDeliveryView,
  SetDockingDevicesRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';

/** The console's platform docking calls (docs/API.md "Platform docking"). */
export const DOCK_PATHS = {
  pagePlatforms: '/api/platformDock/pagePlatforms',
  dockingDetail: '/api/platformDock/dockingDetail',
  apply: '/api/platformDock/apply',
  setDevices: '/api/platformDock/setDevices',
  stop: '/api/platformDock/stop',
  pageDeliveries: '/api/platformDock/pageDeliveries',
} as const;

export const DockKey = {
  all: ['platformDock'],
  platforms: ['platformDock', 'platforms'],
  detail: (id: string) => ['platformDock', 'detail', id],
  deliveries: (body: object) => ['platformDock', 'deliveries', body],
} as const;

export function useDockingPlatforms() {
  return useQuery({
    queryKey: DockKey.platforms,
    queryFn: () => request<CompanyPlatformView[]>(DOCK_PATHS.pagePlatforms, {}),
    retry: false,
  });
}

export function useDockingDetail(id: string) {
  return useQuery({
    queryKey: DockKey.detail(id),
    queryFn: () => request<CompanyDockingView>(DOCK_PATHS.dockingDetail, { id }),
    enabled: id !== '',
    retry: false,
  });
}

export function useDockingDeliveries(body: { id: string; pageNum: number; pageSize: number }) {
  return useQuery({
    queryKey: DockKey.deliveries(body),
    queryFn: () => request<Page<PushDeliveryView>>(DOCK_PATHS.pageDeliveries, body),
    enabled: body.id !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
}

function useInvalidating<In, Out>(call: (input: In) => Promise<Out>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: DockKey.all }),
  });
}

export function useApplyDocking() {
  return useInvalidating((body: ApplyDockingRequest) => request<{ id: string }>(DOCK_PATHS.apply, body));
}

export function useSetDockingDevices() {
  return useInvalidating((body: SetDockingDevicesRequest) => request<unknown>(DOCK_PATHS.setDevices, body));
}

export function useStopDocking() {
  return useInvalidating((id: string) => request<null>(DOCK_PATHS.stop, { id }));
}
