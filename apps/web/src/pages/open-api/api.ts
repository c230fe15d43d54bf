import type {
  CreatedOpenApiKey,
  CreateOpenApiKeyRequest,
  DeviceView,
  OpenApiKeyView,
  OpenApiUsageView,
  Page,
  SetOpenApiKeyDevicesRequest,
} from '@coldchain/contract';
import { MsgCode } from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RequestError, request } from '../../api/request';

/** The console's open-API calls (API.md "Open API"). */
export const OPEN_API_PATHS = {
  createKey: '/api/openApi/createKey',
  pageKeys: '/api/openApi/pageKeys',
  revokeKey: '/api/openApi/revokeKey',
  setDevices: '/api/openApi/setDevices',
  pageUsage: '/api/openApi/pageUsage',
  pageDevices: '/api/device/pageDevices',
} as const;

export const OpenApiKey = {
  all: ['openApi'],
  keys: (body: object) => ['openApi', 'keys', body],
  usage: (body: object) => ['openApi', 'usage', body],
  devices: (body: object) => ['openApi', 'devices', body],
} as const;

/** A company holds at most 20 active keys, and revoked ones stay listed: one page of 100 shows them all. */
export const ALL_KEYS = { pageNum: 1, pageSize: 100 };

export function useOpenApiKeys(body: { pageNum: number; pageSize: number } = ALL_KEYS) {
  return useQuery({
    queryKey: OpenApiKey.keys(body),
    queryFn: () => request<Page<OpenApiKeyView>>(OPEN_API_PATHS.pageKeys, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useOpenApiUsage(body: { id: string; pageNum: number; pageSize: number } | null) {
  return useQuery({
    queryKey: OpenApiKey.usage(body ?? {}),
    queryFn: () => request<Page<OpenApiUsageView>>(OPEN_API_PATHS.pageUsage, body),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useDevicePage(body: { pageNum: number; pageSize: number; keyword?: string }) {
  return useQuery({
    queryKey: OpenApiKey.devices(body),
    queryFn: () => request<Page<DeviceView>>(OPEN_API_PATHS.pageDevices, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOpenApiKeyRequest) => request<CreatedOpenApiKey>(OPEN_API_PATHS.createKey, body),
    // The answer holds the secret: not kept in the mutation cache once the dialog is gone.
    gcTime: 0,
    onSuccess: () => client.invalidateQueries({ queryKey: OpenApiKey.all }),
  });
}

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<null>(OPEN_API_PATHS.revokeKey, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: OpenApiKey.all }),
  });
}

export function useSetKeyDevices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SetOpenApiKeyDevicesRequest) => request<unknown>(OPEN_API_PATHS.setDevices, body),
    onSuccess: () => client.invalidateQueries({ queryKey: OpenApiKey.all }),
  });
}

/**
 * The server's refusal of a whole page (msgCode 500 with a message, e.g. "The open API service is
 * not enabled..."), shown as the page's empty state; null for transport faults, which get a retry.
 */
export function refusalOf(error: unknown): string | null {
  return error instanceof RequestError && error.msgCode === MsgCode.Failed && error.message
    ? error.message
    : null;
}

/** The open API's base address as an integrator calls it from outside. */
export function openApiBaseUrl(): string {
  return `${window.location.origin}/open/v1`;
}
