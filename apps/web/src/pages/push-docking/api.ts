import type {
  DeviceView,
  Page,
  PushDeliveryView,
  PushTestResult,
  PushUrlView,
  SavedPushUrl,
  SavePushUrlRequest,
  SetPushDevicesRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';

/** The console's push docking calls (API.md "Push docking"). */
export const PUSH_PATHS = {
  saveUrl: '/api/push/saveUrl',
  setDevices: '/api/push/setDevices',
  testUrl: '/api/push/testUrl',
  stopUrl: '/api/push/stopUrl',
  pageUrls: '/api/push/pageUrls',
  pageDeliveries: '/api/push/pageDeliveries',
  pageDevices: '/api/device/pageDevices',
} as const;

export const PushKey = {
  all: ['push'],
  urls: ['push', 'urls'],
  deliveries: (body: object) => ['push', 'deliveries', body],
  devices: (body: object) => ['push', 'devices', body],
} as const;

/** A company holds at most 20 addresses: one page of 100 shows them all. */
const ALL_URLS = { pageNum: 1, pageSize: 100 };

export function usePushUrls() {
  return useQuery({
    queryKey: PushKey.urls,
    queryFn: () => request<Page<PushUrlView>>(PUSH_PATHS.pageUrls, ALL_URLS),
    retry: false,
  });
}

export function usePushDeliveries(body: { id: string; pageNum: number; pageSize: number }) {
  return useQuery({
    queryKey: PushKey.deliveries(body),
    queryFn: () => request<Page<PushDeliveryView>>(PUSH_PATHS.pageDeliveries, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function usePushDevicePage(body: { pageNum: number; pageSize: number; keyword?: string }) {
  return useQuery({
    queryKey: PushKey.devices(body),
    queryFn: () => request<Page<DeviceView>>(PUSH_PATHS.pageDevices, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

function useInvalidating<In, Out>(call: (input: In) => Promise<Out>, options: { gcTime?: number } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    ...options,
    onSuccess: () => client.invalidateQueries({ queryKey: PushKey.all }),
  });
}

export function useSavePushUrl() {
  // The answer of a creation holds the secret: not kept once the dialog is gone.
  return useInvalidating((body: SavePushUrlRequest) => request<SavedPushUrl>(PUSH_PATHS.saveUrl, body), {
    gcTime: 0,
  });
}

export function useTestPushUrl() {
  return useInvalidating((id: string) => request<PushTestResult>(PUSH_PATHS.testUrl, { id }));
}

export function useStopPushUrl() {
  return useInvalidating((id: string) => request<null>(PUSH_PATHS.stopUrl, { id }));
}

export function useSetPushDevices() {
  return useInvalidating((body: SetPushDevicesRequest) => request<unknown>(PUSH_PATHS.setDevices, body));
}
