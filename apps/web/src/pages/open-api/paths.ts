/** The open-API screens (packages/contract menus.ts: `OpenApi`, `OpenDevice`). */
export const OPEN_API_PATH = '/interfaceDock/OpenApi';
export const OPEN_DEVICE_PATH = '/interfaceDock/OpenDevice';

/** `OpenDevice` with a key chosen. */
export function openDeviceUrl(keyId: string): string {
  return `${OPEN_DEVICE_PATH}?keyId=${encodeURIComponent(keyId)}`;
}
