/** The open-API screens (packages/contract menus.ts: `OpenApi`, `OpenDevice`). */
export const OPEN_API_PATH = '/interfaceDock/OpenApi';
export const OPEN_DEVICE_PATH = '/interfaceDock/OpenDevice';

/** `OpenDevice` with a key chosen. */
export function openDeviceUrl(keyId: string): string {
  return `${OPEN_DEVICE_PATH}?keyId=${encodeURIComponent(keyId)}`;
}

/** The tabs of `OpenApi`: its keys, and the API document (`?tab=document`). */
export type OpenApiTab = 'keys' | 'document';

export function openApiTabUrl(tab: OpenApiTab): string {
  return tab === 'keys' ? OPEN_API_PATH : `${OPEN_API_PATH}?tab=${tab}`;
}
